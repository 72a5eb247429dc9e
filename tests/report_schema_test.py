#!/usr/bin/python3
"""report.json against docs/report.schema.json (CTest label "report").

Runs certify as CI would (a failing builder with waivers, one of them
expired, and the random phase; the reference; a builder library), validates
each report.json with Debian's python3-jsonschema (Draft 2020-12, formats
checked), checks that its counts agree with its results, and shows that the
validator rejects reports that break the schema: each mutation below must
fail validation, or this test fails.

Usage: report_schema_test.py PBCHECK SCHEMA [LIBRARY]
"""
import copy
import json
import os
import subprocess
import sys
import tempfile

try:
    import jsonschema
except ImportError:
    sys.exit("FAIL: python3-jsonschema is missing (scripts/deps.sh installs it)")

pbcheck, schema_path = sys.argv[1], sys.argv[2]
library = sys.argv[3] if len(sys.argv) > 3 else None
with open(schema_path) as f:
    schema = json.load(f)
Validator = jsonschema.Draft202012Validator
Validator.check_schema(schema)
checker = Validator.FORMAT_CHECKER
# The formats this schema relies on must really be checked, not ignored.
for fmt in ("date",):
    if fmt not in checker.checkers:
        sys.exit("FAIL: this jsonschema does not check format '%s'" % fmt)
validator = Validator(schema, format_checker=checker)

failures = []


def check(name, ok, detail=""):
    print("%s %s%s" % ("ok  " if ok else "FAIL", name, (": " + detail) if detail and not ok else ""))
    if not ok:
        failures.append(name)


def errors(doc):
    return sorted(validator.iter_errors(doc), key=lambda e: list(e.path))


def certify(tmp, name, args, want_rc):
    out = os.path.join(tmp, name)
    rc = subprocess.run([pbcheck, "certify", "--out", out] + args, stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL).returncode
    check(name + "-exit", rc == want_rc, "exit %d, want %d" % (rc, want_rc))
    with open(os.path.join(out, "latest", "report.json")) as f:
        return json.load(f)


def consistent(name, r):
    res = r["results"]
    by = lambda v: sum(c["verdict"] == v for c in res)
    check(name + "-counts", r["cases"] == len(res) and r["passed"] == by("pass") and r["failed"] == by("fail")
          and r["waived"] == by("waived") and r["skipped"] == by("skip") and r["harness_bugs"] == by("harness-bug"))
    check(name + "-rule-totals", sum(r["rules"].values()) == sum(c["verdict"] == "fail" and c["rule"] != "" for c in res))
    check(name + "-random-cases", r["random_cases"] == sum(c["name"].startswith("fuzz/") for c in res))
    times = [c["finished_at"] for c in res]
    check(name + "-finish-times", times == sorted(times) and times[-1] <= r["seconds"] + 1e-6)


with tempfile.TemporaryDirectory() as tmp:
    waivers = os.path.join(tmp, "waivers")
    with open(waivers, "w") as f:
        f.write("# waive one operation's failures\n"
                "transfer-mdl-to-seg/*  PB-GPU-FAULT  2999-12-31  vendor bug 4711\n"
                "fill/*  *  2001-01-01  expired long ago\n")
    runs = [("trunc32", ["--target", "mutant-trunc32", "--quick", "--time", "1", "--waivers", waivers], 1),
            ("reference", ["--target", "reference", "--quick"], 0)]
    if library:
        runs.append(("library", ["--target", library, "--quick"], 0))
    reports = {}
    for name, args, rc in runs:
        r = certify(tmp, name, args, rc)
        errs = errors(r)
        check(name + "-valid", not errs, "; ".join("%s: %s" % ("/".join(map(str, e.path)), e.message) for e in errs[:5]))
        consistent(name, r)
        reports[name] = r
    t = reports["trunc32"]
    check("trunc32-has-waived", t["waived"] > 0 and t["expired_waivers"] == 1 and t["random_cases"] > 0)
    check("reference-builtin", reports["reference"]["provenance"]["target_binary"]["builtin"] is True)
    if library:
        lib = reports["library"]["provenance"]["target_binary"]
        check("library-digested", lib["builtin"] is False and lib["path"].endswith(os.path.basename(library)))

    # Reports that break the schema, each in one way: all must be rejected.
    def mutated(edit):
        doc = copy.deepcopy(t)
        edit(doc)
        return doc

    first_waived = next(i for i, c in enumerate(t["results"]) if c["verdict"] == "waived")
    breakages = {
        "no-provenance": lambda d: d.pop("provenance"),
        "no-verdict": lambda d: d.pop("verdict"),
        "unknown-verdict": lambda d: d.update(verdict="maybe"),
        "negative-count": lambda d: d.update(failed=-1),
        "unknown-field": lambda d: d.update(extra=1),
        "short-digest": lambda d: d["provenance"]["target_binary"].update(xxh3_128="abc"),
        "date-not-utc": lambda d: d["provenance"].update(started="2026-11-24 06:15"),
        "impossible-expiry": lambda d: d["waivers"][0].update(expires="2026-02-30"),
        "unknown-isolation": lambda d: d["results"][0].update(isolation="segfault"),
        "detail-without-class": lambda d: d["results"][0].update(isolation_detail="SIGSEGV"),
        "waived-without-waiver": lambda d: d["results"][first_waived].pop("waiver"),
        "case-without-time": lambda d: d["results"][0].pop("finished_at"),
        "missing-option": lambda d: d["provenance"]["options"].pop("seed"),
    }
    for name, edit in breakages.items():
        check("rejects-" + name, bool(errors(mutated(edit))))

print("%d failed" % len(failures))
sys.exit(1 if failures else 0)
