#!/usr/bin/env python3
"""triage.html as a browser renders it (CTest label "report").

Encodes the seeds into a folder of failing inputs, adds a copy of one under
a hostile file name (markup, a script tag, quotes and a literal "&amp;"),
triages it against mutant-no-fence, then again against mutant-busy-always
with --join of the first (so buckets carry a status and one is gone), and
against mutant-trunc32 (several buckets under one root cause). Each
DIR/triage.html is opened in headless Chromium and checked against the
triage.json beside it: no console message (no script, nothing blocked by the
Content-Security-Policy); the same CSP as index.html and the same inline
stylesheet (reports/report.css); the title names the target and the input
count; the banner and summary give the buckets, failing buckets and flaky
inputs; the bucket table has one row per bucket in triage.json's order,
with its status, class, rule, counts and links that name files in DIR; each
bucket has its section with the signature, the replay command, every input
and the text of its repro.pbs; the root-cause table has one row per root
cause, each linking to exactly its buckets, and each bucket's row links
to its root cause; the gone list matches; the hostile name
shows as text and makes no element; a page that cannot be written stops
triage with exit 2 and one line. A screenshot of each page is kept in
OUTDIR. The checker first proves it can fail: the real page without its
bucket table, without its root-cause table, with the hostile name
unescaped, and with a script must each
be rejected.

Usage: triage_html_test.py PBCHECK SOURCE_DIR OUTDIR
"""
import glob
import html.parser
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chromium as chromium_page  # noqa: E402 (tests/chromium.py)

pbcheck, source, outdir = sys.argv[1], sys.argv[2], sys.argv[3]
chromium = shutil.which("chromium") or shutil.which("chromium-browser")
if not chromium:
    sys.exit("FAIL: chromium is missing (scripts/deps.sh installs it)")
os.makedirs(outdir, exist_ok=True)
HOSTILE = "crash-<b>x<script>&amp;\"'"
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
failures = []
expect_failures = [False]  # during the self-test a failed check is what we want


def check(name, ok, detail=""):
    if ok:
        print("ok   " + name)
        return
    print("%s %s%s" % ("caught" if expect_failures[0] else "FAIL", name, ": %s" % (detail,) if detail != "" else ""))
    failures.append(name)


class Node:
    def __init__(self, tag, attrs, parent):
        self.tag, self.attrs, self.parent, self.kids = tag, dict(attrs), parent, []

    def text(self):
        return "".join(k if isinstance(k, str) else k.text() for k in self.kids)

    def all(self, tag=None, cls=None):
        """Descendant elements, document order, by tag and one of their classes."""
        for k in self.kids:
            if isinstance(k, Node):
                if (tag is None or k.tag == tag) and (cls is None or cls in k.attrs.get("class", "").split()):
                    yield k
                yield from k.all(tag, cls)

    def by_id(self, ident):
        return next((n for n in self.all() if n.attrs.get("id") == ident), None)


class TreeBuilder(html.parser.HTMLParser):
    """The element tree of a serialized DOM (Chromium's --dump-dom closes every element)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = self.at = Node("#document", [], None)

    def handle_starttag(self, tag, attrs):
        node = Node(tag, attrs, self.at)
        self.at.kids.append(node)
        if tag not in VOID:
            self.at = node

    def handle_startendtag(self, tag, attrs):
        self.at.kids.append(Node(tag, attrs, self.at))

    def handle_endtag(self, tag):
        node = self.at
        while node is not self.root and node.tag != tag:
            node = node.parent
        if node is not self.root:
            self.at = node.parent

    def handle_data(self, data):
        self.at.kids.append(data)


def render(page, profile, screenshot=None):
    """(element tree, console lines) of page as headless Chromium builds it."""
    dom, console = chromium_page.dump_dom(page, profile, screenshot)
    tree = TreeBuilder()
    tree.feed(dom)
    return tree.root, console


def index_csp():
    with open(os.path.join(source, "reports", "template.html")) as f:
        m = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', f.read())
    return m.group(1)


def judge(name, page, profile, screenshot=None, hostile=None):
    """Every check of the page DIR/triage.html against DIR/triage.json; the failed ones."""
    before = len(failures)
    folder = os.path.dirname(page)
    with open(os.path.join(folder, "triage.json")) as f:
        tj = json.load(f)
    buckets, inputs, target = tj["buckets"], tj["inputs"], tj["target"]
    joined = "gone" in tj
    failing = [b for b in buckets if b["facts"]["class"] not in ("no-repro", "invalid")]
    doc, console = render(page, profile, screenshot)
    check(name + "-no-console-messages", not console, "\n    ".join(console))

    metas = [m.attrs.get("content") for m in doc.all("meta") if m.attrs.get("http-equiv") == "Content-Security-Policy"]
    check(name + "-csp-as-index-html", metas == [index_csp()], metas)
    fetching = [n.tag for n in doc.all() if n.tag == "script" or "src" in n.attrs or n.tag == "link"]
    check(name + "-nothing-runs-or-fetches", not fetching, fetching)
    with open(os.path.join(source, "reports", "report.css")) as f:
        css = f.read().strip()
    styles = [s.text().strip() for s in doc.all("style")]
    check(name + "-report-css", styles == [css], "%d style elements" % len(styles))

    title = next(doc.all("title"), None)
    title = title.text() if title is not None else ""
    n_inputs = "%d input%s" % (len(inputs), "" if len(inputs) == 1 else "s")
    check(name + "-title", target in title and n_inputs in title, title)
    check(name + "-target", doc.by_id("target") is not None and doc.by_id("target").text() == target)
    check(name + "-input-count", doc.by_id("input-count") is not None and doc.by_id("input-count").text() == n_inputs)
    header = next(doc.all("header"), None)
    want_class = "fail" if failing else "pass"
    check(name + "-banner", header is not None and header.attrs.get("class", "").split() == ["verdict", want_class],
          header.attrs if header else None)
    flaky = sum(1 for i in inputs if i["flaky"])
    want = "%d bucket%s, %d failing, %d flaky input%s" % (len(buckets), "" if len(buckets) == 1 else "s", len(failing),
                                                          flaky, "" if flaky == 1 else "s")
    summary = doc.by_id("summary").text() if doc.by_id("summary") else ""
    check(name + "-summary", summary.startswith(want), "%r, want %r" % (summary, want))

    table = doc.by_id("buckets")
    check(name + "-bucket-table", table is not None and table.tag == "table")
    if table is not None:
        head = [th.text().strip() for th in next(table.all("thead")).all("th")]
        rows = list(next(table.all("tbody")).all("tr"))
        check(name + "-one-row-per-bucket", len(rows) == len(buckets), "%d rows, %d buckets" % (len(rows), len(buckets)))
        check(name + "-status-column", ("status" in head) == joined, head)
        for row, b in zip(rows, buckets):
            cells = {h: c for h, c in zip(head, [c for c in row.kids if isinstance(c, Node)])}
            got = {h: cells[h].text().strip() for h in cells if h in ("bucket", "status", "class", "rule", "inputs",
                                                                    "flaky", "title")}
            want = {"bucket": b["id"], "class": b["facts"]["class"], "rule": b["facts"].get("rule", ""),
                    "inputs": str(b["count"]), "flaky": str(b["flaky"]), "title": b["title"]}
            if joined:
                want["status"] = b["status"]
            check(name + "-row-" + b["id"], got == want, "%s, want %s" % (got, want))
            hrefs = [a.attrs.get("href", "") for a in row.all("a")]
            files = ["buckets/%s/report.txt" % b["id"]] + (["buckets/%s/repro.pbs" % b["id"]] if "repro" in b else [])
            check(name + "-row-links-" + b["id"], all(f in hrefs for f in files) and "#" + b["id"] in hrefs, hrefs)
            check(name + "-row-links-exist-" + b["id"],
                  all(os.path.isfile(os.path.join(folder, h)) for h in hrefs if not h.startswith("#")), hrefs)

    roots = doc.by_id("root-causes")
    check(name + "-root-cause-table", roots is not None and roots.tag == "table")
    if roots is not None:
        rows = list(next(roots.all("tbody")).all("tr"))
        check(name + "-one-row-per-root-cause", len(rows) == len(tj["root_causes"]),
              "%d rows, %d root causes" % (len(rows), len(tj["root_causes"])))
        for row, r in zip(rows, tj["root_causes"]):
            held = [a.attrs.get("href", "") for a in row.all("a")]
            check(name + "-root-cause-" + r["id"], row.attrs.get("id") == r["id"] and r["title"] in row.text() and
                  held == ["#" + b for b in r["buckets"]], "%s: %s" % (row.attrs.get("id"), held))
    if table is not None:
        for row, b in zip(next(table.all("tbody")).all("tr"), buckets):
            links = [a.attrs.get("href", "") for a in row.all("a")]
            check(name + "-row-root-cause-" + b["id"], "#" + b["root_cause"] in links, links)

    for b in buckets:
        sec = doc.by_id(b["id"])
        check(name + "-section-" + b["id"], sec is not None and sec.tag == "details")
        if sec is None:
            continue
        text = sec.text()
        check(name + "-signature-" + b["id"], b["signature"] in text and b["signature_text"] in text)
        replay = [p.text() for p in sec.all("pre", "replay")]
        if "repro" in b:
            # From any folder: cd into the triage folder first, the target by its absolute path.
            shown_target = os.path.abspath(target) if "/" in target else target
            want = "cd %s && pbcheck run buckets/%s/repro.pbs --target %s" % (
                shlex.quote(os.path.abspath(folder)), b["id"], shlex.quote(shown_target))
            check(name + "-replay-" + b["id"], replay == [want], replay)
        items = [li.text() for li in next(sec.all("ul", "inputs")).all("li")]
        check(name + "-inputs-" + b["id"], len(items) == len(b["inputs"]) and
              all(li.startswith(p) for li, p in zip(items, b["inputs"])), items[:3])
        repro_file = os.path.join(folder, "buckets", b["id"], "repro.pbs")
        if os.path.exists(repro_file):
            with open(repro_file) as f:
                want = f.read()
            shown = [p.text() for p in sec.all("pre", "repro")]
            check(name + "-reproducer-text-" + b["id"], shown == [want], shown[:1])

    gone = doc.by_id("gone")
    if joined and tj["gone"]:
        items = [li.text() for li in gone.all("li")] if gone is not None else []
        check(name + "-gone-list", len(items) == len(tj["gone"]) and
              all(g["title"] in li and g["signature"] in li for li, g in zip(items, tj["gone"])), items)
    else:
        check(name + "-no-gone-list", gone is None)

    if hostile:
        shown = [li.text() for li in doc.all("li") if li.text().startswith(hostile)]
        check(name + "-hostile-name-as-text", len(shown) == 1, shown)
        markup = [n.tag for n in doc.all() if n.tag in ("b", "script")]
        check(name + "-hostile-name-makes-no-element", not markup, markup)
    if screenshot:
        check(name + "-screenshot", os.path.exists(screenshot) and os.path.getsize(screenshot) > 10000)
    return failures[before:]


with tempfile.TemporaryDirectory() as tmp:
    profile = os.path.join(tmp, "profile")
    enc, inputs = os.path.join(tmp, "enc"), os.path.join(tmp, "inputs")
    seeds = sorted(glob.glob(os.path.join(source, "corpus", "seeds", "*.pbs")))
    rc = subprocess.run([pbcheck, "encode"] + seeds + ["--out", enc], capture_output=True, text=True)
    check("encode", rc.returncode == 0, rc.stderr)
    shutil.copytree(enc, inputs)
    hostile = os.path.join(inputs, HOSTILE)
    try:
        shutil.copy(os.path.join(enc, "fill-basic.bin"), hostile)
        check("hostile-file-name", HOSTILE in os.listdir(inputs))
    except OSError as e:
        check("hostile-file-name", False, e)

    first, joined = os.path.join(tmp, "no-fence"), os.path.join(tmp, "busy-always")
    # One planted bug that fills several buckets under one root cause.
    several = os.path.join(tmp, "trunc32")
    for out, args in ((first, ["--target", "mutant-no-fence"]),
                      (joined, ["--target", "mutant-busy-always", "--join", first]),
                      (several, ["--target", "mutant-trunc32", "--repeat", "1"])):
        rc = subprocess.run([pbcheck, "triage", inputs, "--out", out] + args, capture_output=True, text=True)
        name = os.path.basename(out)
        check(name + "-triage-exit", rc.returncode == 1, "%d: %s" % (rc.returncode, rc.stderr))
        check(name + "-page-written", os.path.isfile(os.path.join(out, "triage.html")))
    # A page that cannot be written stops triage as its other files do.
    blocked = os.path.join(tmp, "blocked")
    os.makedirs(os.path.join(blocked, "triage.html"))
    rc = subprocess.run([pbcheck, "triage", inputs, "--out", blocked, "--target", "mutant-no-fence"],
                        capture_output=True, text=True)
    check("unwritable-page-exit", rc.returncode == 2, rc.returncode)
    # Progress lines ("triage: N/M done, ...", every few seconds on a slow
    # machine) are not errors: the error is one line of its own.
    said = [line for line in rc.stderr.splitlines() if not re.match(r"triage: (.*: )?\d+/\d+ done", line)]
    check("unwritable-page-one-line", len(said) == 1 and
          said[0].startswith("pbcheck: triage: cannot write %s: " % os.path.join(blocked, "triage.html")), said)
    with open(os.path.join(joined, "triage.json")) as f:
        d = json.load(f)
    check("join-gives-status-and-gone", any(b.get("status") == "new" for b in d["buckets"]) and d.get("gone"))
    with open(os.path.join(several, "triage.json")) as f:
        d = json.load(f)
    check("trunc32-buckets-share-a-root-cause", any(len(r["buckets"]) > 1 for r in d["root_causes"]),
          [r["buckets"] for r in d["root_causes"]])

    page = os.path.join(first, "triage.html")
    with open(page) as f:
        raw = f.read()
    check("hostile-name-escaped-in-file", "crash-&lt;b&gt;x&lt;script&gt;&amp;amp;&quot;&#39;" in raw and
          HOSTILE not in raw)

    # The checker must be able to fail: the real page, broken one way each.
    broken = {
        "no-table": re.sub(r'<table class="matrix" id="buckets">.*?</table>', "", raw, flags=re.S),
        "no-root-causes": re.sub(r'<table class="matrix" id="root-causes">.*?</table>', "", raw, flags=re.S),
        "unescaped": raw.replace("crash-&lt;b&gt;x&lt;script&gt;", "crash-<b>x</b><script>", 1),
        "script": raw.replace("</body>", "<script>nosuch()</script></body>"),
    }
    for what, text in broken.items():
        check("self-test-" + what + "-differs", text != raw)
        path = os.path.join(first, "self-test-%s.html" % what)
        with open(path, "w") as f:
            f.write(text)
        expect_failures[0] = True
        before = list(failures)
        caught = judge("self-test-" + what, path, profile, hostile=hostile)
        failures[:] = before
        expect_failures[0] = False
        check("self-test-" + what + "-rejected", bool(caught))
        os.remove(path)

    for out in (first, joined, several):
        name = os.path.basename(out)
        judge(name, os.path.join(out, "triage.html"), profile, os.path.join(outdir, name + ".png"), hostile)
        shutil.copy(os.path.join(out, "triage.html"), os.path.join(outdir, name + ".html"))

print("%d failed; screenshots in %s" % (len(failures), outdir))
sys.exit(1 if failures else 0)
