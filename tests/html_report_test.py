#!/usr/bin/env python3
"""index.html as a browser renders it (CTest label "report").

Certifies a planted bug failing several rules (with the random phase, so
the page has its chart) and an example third-party builder (CONFORMANT,
with skipped cases and operations it does not declare), opens each
index.html in headless Chromium and checks: no console message at all (the page has no script, and its
Content-Security-Policy turns any attempt to fetch or run something into a
console error); the verdict and the operation x rule matrix are in the
rendered DOM, the matrix agreeing with report.json cell by cell; a
screenshot is taken (kept in OUTDIR to look at) whose verdict banner is red
for NOT CONFORMANT and green for CONFORMANT. On the failing page: every
rule with failures links to its groups, each group with a detail block
(its smallest case in full), every non-zero cell of the matrix links to a
group holding a detail block, and the filter (a URL fragment, CSS
:target: no script) narrows the groups to one rule's, screenshot kept. On
the CONFORMANT page: the skipped cases by reason and the undeclared
operations, as report.json has them. The checker first proves it can
fail: a page with a script error, one with a blocked fetch and one
without a verdict must each be rejected, and the link and filter checks
must reject a page whose links lead nowhere and whose filter hides
nothing.

Usage: html_report_test.py PBCHECK OUTDIR EXAMPLE_LIB
"""
import html.parser
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chromium as chromium_page  # noqa: E402 (tests/chromium.py)

pbcheck, outdir, example = sys.argv[1], sys.argv[2], sys.argv[3]
chromium = shutil.which("chromium") or shutil.which("chromium-browser")
if not chromium:
    sys.exit("FAIL: chromium is missing (scripts/deps.sh installs it)")
os.makedirs(outdir, exist_ok=True)
failures = []
selftesting = [False]  # the checks' failures are expected: said so, not counted


def check(name, ok, detail=""):
    word = "ok  " if ok else "caught" if selftesting[0] else "FAIL"
    print("%s %s%s" % (word, name, (": " + str(detail)) if detail and not ok else ""))
    if not ok:
        failures.append(name)


def render(page, profile, screenshot=None):
    """(DOM text, console lines) of page in headless Chromium."""
    return chromium_page.dump_dom(page, profile, screenshot)


class Dom(html.parser.HTMLParser):
    """Text by element id, and the matrix as rows of cell texts."""

    def __init__(self):
        super().__init__()
        self.by_id, self.open_ids, self.matrix, self.in_matrix, self.cell = {}, [], [], 0, None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.open_ids.append([a["id"], tag, ""])
        elif self.open_ids:
            self.open_ids.append([None, tag, ""])
        if a.get("id") == "matrix":
            self.in_matrix = 1
        if self.in_matrix and tag == "tr":
            self.matrix.append([])
        if self.in_matrix and tag in ("td", "th"):
            self.cell = ""

    def handle_endtag(self, tag):
        if self.in_matrix and tag in ("td", "th") and self.cell is not None:
            self.matrix[-1].append(self.cell.strip())
            self.cell = None
        if self.in_matrix and tag == "table":
            self.in_matrix = 0
        if self.open_ids and self.open_ids[-1][1] == tag:
            ident, _, text = self.open_ids.pop()
            if ident:
                self.by_id[ident] = text.strip()
            if self.open_ids:
                self.open_ids[-1][2] += text

    def handle_data(self, data):
        if self.open_ids:
            self.open_ids[-1][2] += data
        if self.cell is not None:
            self.cell += data


def parse(dom):
    p = Dom()
    p.feed(dom)
    return p


def banner_rgb(png_path):
    """The RGB of the screenshot's pixel at (8, 8): inside the verdict banner."""
    with open(png_path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, _, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and color in (2, 6) and interlace == 0, "unexpected PNG layout"
            bpp = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw, stride = zlib.decompress(idat), width * bpp
    prev = bytearray(stride)
    for y in range(9):
        ftype, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if ftype == 1:
                line[i] = (line[i] + a) & 255
            elif ftype == 2:
                line[i] = (line[i] + b) & 255
            elif ftype == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ftype == 4:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        prev = line
    return tuple(prev[8 * bpp:8 * bpp + 3])


def judge(name, page, profile, report=None, want_verdict=None, screenshot=None):
    """The checks on one page; returns the names of those that failed."""
    before = len(failures)
    dom, console = render(page, profile, screenshot)
    check(name + "-no-console-messages", not console, "\n    ".join(console))
    d = parse(dom)
    verdict = d.by_id.get("verdict", "")
    check(name + "-verdict-rendered", verdict in ("CONFORMANT", "NOT CONFORMANT", "INCOMPLETE (interrupted)"),
          repr(verdict))
    check(name + "-matrix-rendered", len(d.matrix) >= 3 and any(r and r[0] == "all operations" for r in d.matrix))
    if want_verdict:
        check(name + "-verdict-is-" + want_verdict.replace(" ", "-"), verdict == want_verdict, verdict)
    if report:
        head = d.matrix[0]
        rules = list(report["rules"])
        want = {}
        for c in report["results"]:
            op = c["name"].split("/")[0]
            if c["verdict"] == "fail" and "isolation" not in c and c["rule"]:
                want[(op, c["rule"])] = want.get((op, c["rule"]), 0) + 1
            if c["verdict"] == "pass":
                want[(op, "passed")] = want.get((op, "passed"), 0) + 1
        got = {}
        for row in d.matrix[1:]:
            for col, cell in zip(head[1:], row[1:]):
                if row[0] != "all operations" and cell != "0" and (col in rules or col == "passed"):
                    got[(row[0], col)] = int(cell)
        check(name + "-matrix-matches-report", got == want,
              "differs at %s" % sorted(set(got.items()) ^ set(want.items()))[:4])
        check(name + "-matrix-has-every-rule", all(r in head for r in rules))
        check(name + "-counts-rendered", d.by_id.get("counts", "").startswith("%d cases: %d passed, %d failed"
                                                                              % (report["cases"], report["passed"],
                                                                                 report["failed"])))
    if screenshot:
        ok = os.path.exists(screenshot) and os.path.getsize(screenshot) > 10000
        check(name + "-screenshot", ok)
        if ok and want_verdict:
            r, g, b = banner_rgb(screenshot)
            red = want_verdict != "CONFORMANT"
            check(name + "-banner-colour", (r > 150 and g < 80) if red else (g > 100 and r < 80), (r, g, b))
    return failures[before:]


# What the rendered page says of its links and its filter (JavaScript run
# by the test through the DevTools protocol: the page itself has none).
LINKS_JS = """JSON.stringify((() => {
  const groups = id => { const g = document.getElementById(id); return g && g.classList.contains('group') && !!g.querySelector('details.case'); };
  const heads = [...document.querySelectorAll('#matrix thead th')].map(th => th.textContent.trim());
  const rules = {};
  document.querySelectorAll('#matrix thead th a').forEach(a => rules[a.textContent.trim()] = a.hash.slice(1));
  const cells = [...document.querySelectorAll('#matrix tbody td.hit')];
  return {rules: rules, heads: heads,
          cells_without_link: cells.filter(td => !td.querySelector('a')).length,
          cells: cells.length,
          links_to_detail: [...document.querySelectorAll('#matrix td a')].every(a => groups(a.hash.slice(1)))};
})())"""


def filter_js(target):
    return """JSON.stringify((() => {
  location.hash = '%s';
  const all = [...document.querySelectorAll('.group')];
  const shown = all.filter(g => getComputedStyle(g).display != 'none');
  return {all: all.length, shown: shown.map(g => g.querySelector('.tag.rule').textContent),
          details: shown.every(g => !!g.querySelector('details.case'))};
})())""" % target


def links_and_filter(name, page, profile, report, screenshot=None):
    """The failing page's links and filter; returns the names of the checks that failed."""
    before = len(failures)
    failing_rules = [r for r, n in report["rules"].items() if n]
    got = json.loads(chromium_page.evaluate(page, profile, [LINKS_JS])[0] or "{}")
    check(name + "-several-rules", len(failing_rules) >= 2, failing_rules)
    check(name + "-every-failing-rule-links", sorted(got.get("rules", {})) == sorted(failing_rules), got.get("rules"))
    check(name + "-every-cell-links", got.get("cells") and got.get("cells_without_link") == 0 and got.get("links_to_detail"),
          got)
    for rule, target in sorted(got.get("rules", {}).items()):
        shot = screenshot if screenshot and rule == failing_rules[-1] else None
        shown = json.loads(chromium_page.evaluate(page, profile, [filter_js(target)], shot)[0] or "{}")
        check(name + "-filter-narrows-to-" + rule,
              shown.get("shown") and set(shown["shown"]) == {rule} and len(shown["shown"]) < shown["all"]
              and shown["details"], shown)
        if shot:
            check(name + "-filtered-screenshot", os.path.exists(shot) and os.path.getsize(shot) > 10000)
    return failures[before:]


with tempfile.TemporaryDirectory() as tmp:
    profile = os.path.join(tmp, "profile")

    # The checker must be able to fail.
    selftest = os.path.join(tmp, "self")
    os.makedirs(selftest)
    good = ('<h1 id="verdict">CONFORMANT</h1><table id="matrix"><tr><th>a</th></tr><tr><th>b</th></tr>'
            '<tr><th>all operations</th></tr></table>')
    csp = "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'\">"
    pages = {  # name: (head, body), each page wrong in one way
        "script-error": ("", good + "<script>nosuch()</script>"),
        "blocked-fetch": (csp, good + '<img src="http://localhost:9/x.png">'),
        "no-verdict": ("", '<h1>pbcheck</h1><table id="matrix"><tr><th>a</th></tr></table>'),
    }
    for name, (head, body) in pages.items():
        path = os.path.join(selftest, name + ".html")
        with open(path, "w") as f:
            f.write("<!DOCTYPE html><html><head><meta charset=\"utf-8\">%s<title>t</title></head><body>%s</body></html>"
                    % (head, body))
        saved, selftesting[0] = list(failures), True
        caught = judge("self-test-" + name, path, profile)
        failures[:], selftesting[0] = saved, False
        check("self-test-" + name + "-rejected", bool(caught))
    # Links that lead nowhere and a filter that hides nothing.
    broken = os.path.join(selftest, "broken-links.html")
    with open(broken, "w") as f:
        f.write('<!DOCTYPE html><html><head><meta charset="utf-8"><title>t</title></head><body>'
                '<table id="matrix"><thead><tr><th>op</th><th><a href="#f-r0">PB-A</a></th><th>PB-B</th></tr></thead>'
                '<tbody><tr><th>x</th><td class="hit"><a href="#nowhere">1</a></td><td class="hit">1</td></tr></tbody>'
                '</table><span id="f-r0"></span><div class="groups"><details class="group"><summary>'
                '<span class="tag rule">PB-B</span></summary></details></div></body></html>')
    saved, selftesting[0] = list(failures), True
    caught = links_and_filter("self-test-links", broken, profile, {"rules": {"PB-A": 1, "PB-B": 1}})
    failures[:], selftesting[0] = saved, False
    check("self-test-links-rejected", len(caught) >= 3, caught)

    runs = [("not-conformant", ["--target", "mutant-trunc32", "--quick", "--time", "2"], 1, "NOT CONFORMANT"),
            ("conformant", ["--target", example, "--quick"], 0, "CONFORMANT")]
    for name, args, want_rc, verdict in runs:
        out = os.path.join(tmp, name)
        rc = subprocess.run([pbcheck, "certify", "--out", out] + args, capture_output=True, text=True)
        check(name + "-exit", rc.returncode == want_rc, rc.returncode)
        latest = os.path.join(out, "latest")
        page = os.path.join(latest, "index.html")
        check(name + "-prints-where", "report: %s\n" % os.path.join(out, os.readlink(latest), "index.html")
              in rc.stdout)
        with open(os.path.join(latest, "report.json")) as f:
            report = json.load(f)
        judge(name, page, profile, report, verdict, os.path.join(outdir, name + ".png"))
        if report["random_cases"]:
            dom, _ = render(page, profile)
            check(name + "-chart-rendered", 'id="chart"' in dom and "<polyline" in dom)
        if verdict != "CONFORMANT":
            links_and_filter(name, page, profile, report, os.path.join(outdir, name + "-filtered.png"))
        else:  # what was not tested, as report.json says
            d = parse(render(page, profile)[0])
            skips, undeclared = report["not_tested"]["skipped"], report["not_tested"]["undeclared_operations"]
            check(name + "-has-skips-and-undeclared", skips and undeclared, report["not_tested"])
            check(name + "-lists-skip-reasons", all(s["reason"] in d.by_id.get(s["id"], "") and
                                                    str(s["cases"]) in d.by_id.get(s["id"], "") for s in skips))
            check(name + "-lists-undeclared", all(op in d.by_id.get("undeclared", "") for op in undeclared or ["?"]))
        shutil.copy(page, os.path.join(outdir, name + ".html"))

print("%d failed; screenshots in %s" % (len(failures), outdir))
sys.exit(1 if failures else 0)
