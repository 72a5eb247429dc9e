#!/usr/bin/env bash
# Where certify's reports go and what stops them (CTest label "report"):
# each run in a fresh folder with OUT/latest pointing at it, nothing stale
# beside a second run's verdict; report.sarif valid SARIF 2.1.0 that code
# scanning can use (rule texts from the catalogue, every failure at the
# builder's source in this repository, levels by class); an unwritable
# output folder refused before the suite runs; a report on a full device
# (/dev/full) is exit 2 with the path and the reason; waivers (waived,
# expired, malformed).
# Usage: report_test.sh PBCHECK SOURCE_DIR
set -u
pbcheck=$1 src=$2
sarif_schema=${PBC_SARIF_SCHEMA:-/usr/local/share/pbcheck/sarif-schema-2.1.0.json}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/check.sh"
json() { # json FILE PYTHON-EXPRESSION-OVER-r: exit 0 when it is true
    python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); sys.exit(0 if eval(sys.argv[2]) else 1)' "$1" "$2"
}

# Twice into one folder: a failing run leaves reproducers; the passing run
# after it has its own folder, with none, and latest points at it.
out="$tmp/twice"
"$pbcheck" certify --target mutant-trunc32 --quick --out "$out" --source-root "$src" >"$tmp/first.out" 2>/dev/null
check first-run-fails [ $? -eq 1 ]
first=$(readlink "$out/latest")
# report.sarif: one result per group of failing cases, each at the
# builder's source (the DDI function that emitted the packets, from its
# debug information) relative to --source-root, the reproducer beside it.
check sarif-schema-present [ -s "$sarif_schema" ]
check sarif-valid python3 -c 'import json,sys,jsonschema
s=json.load(open(sys.argv[2])); d=json.load(open(sys.argv[1]))
jsonschema.validators.validator_for(s)(s).validate(d)' "$out/$first/report.sarif" "$sarif_schema"
"$pbcheck" list rules >"$tmp/rules"
check sarif-for-code-scanning python3 -c 'import json,os,sys
run=json.load(open(sys.argv[1]))["runs"][0]; src=sys.argv[3]; report=json.load(open(sys.argv[4]))
catalogue=open(sys.argv[2]).read(); rulesmd=open(src + "/docs/rules.md").read()
ok = run["automationDetails"]["id"] == "pbcheck-certify/mutant-trunc32/" + report["provenance"]["run_id"]
ok = ok and run["invocations"][0]["executionSuccessful"] and "--target" in run["invocations"][0]["arguments"]
for rule in run["tool"]["driver"]["rules"]:
    ok = ok and rule["id"] in catalogue and rule["shortDescription"]["text"] in catalogue
    ok = ok and ("<a id=\"%s\">" % rule["helpUri"].split("#")[1]) in rulesmd
for r in run["results"]:
    place = r["locations"][0]["physicalLocation"]
    ok = ok and place["artifactLocation"].get("uriBaseId") == "SRCROOT" and place["region"]["startLine"] > 0
    ok = ok and os.path.isfile(os.path.join(src, place["artifactLocation"]["uri"]))
    repro = r["relatedLocations"][0]["physicalLocation"]["artifactLocation"]
    ok = ok and repro["uriBaseId"] == "RUNDIR" and os.path.isfile(os.path.join(os.path.dirname(sys.argv[1]), repro["uri"]))
levels = {r["ruleId"]: r["level"] for r in run["results"]}
ok = ok and levels == {"PB-DIVERGE": "error", "PB-GPU-FAULT": "warning"}
ok = ok and len(run["results"]) == len(report["groups"]) and {r["properties"]["group"] for r in run["results"]} == {g["id"] for g in report["groups"]}
sys.exit(not ok)' "$out/$first/report.sarif" "$tmp/rules" "$src" "$out/$first/report.json"
check first-has-repros [ "$(ls "$out/$first/repro" | wc -l)" -gt 0 ]
check first-prints-report grep -qx "report: $out/$first/index.html" "$tmp/first.out"
sleep 1
"$pbcheck" certify --target reference --quick --out "$out" >"$tmp/second.out" 2>/dev/null
check second-run-passes [ $? -eq 0 ]
second=$(readlink "$out/latest")
check new-run-folder test -n "$second" -a "$second" != "$first"
check run-id-shape bash -c '[[ $1 =~ ^[0-9]{8}T[0-9]{6}Z-[0-9]+$ ]]' _ "$second"
check no-stale-repros [ -z "$(ls -A "$out/$second/repro")" ]
check second-folder-holds-only-its-own [ "$(cd "$out/$second" && ls -A | LC_ALL=C sort | tr '\n' ' ')" = "index.html journal.jsonl junit.xml report.json report.sarif repro summary.md " ]
check passing-sarif-no-results python3 -c 'import json,sys; sys.exit(json.load(open(sys.argv[1]))["runs"][0]["results"] != [])' "$out/$second/report.sarif"
check second-report-passes json "$out/latest/report.json" 'r["verdict"] == "pass"'
check second-report-run-id python3 -c 'import json,sys; sys.exit(json.load(open(sys.argv[1]))["provenance"]["run_id"] != sys.argv[2])' "$out/latest/report.json" "$second"
check first-still-there [ -f "$out/$first/report.json" ]
check verdict-names-run-folder grep -q "^verdict: CONFORMANT (reports in $out/$second/)$" "$tmp/second.out"

# An output folder that cannot be made: refused at once, with the reason,
# before any case runs (no progress, no table).
echo x >"$tmp/file"
start=$(date +%s)
"$pbcheck" certify --target reference --out "$tmp/file/reports" >"$tmp/out" 2>"$tmp/err"
check unwritable-out-exit-2 [ $? -eq 2 ]
check unwritable-out-one-line [ "$(wc -l <"$tmp/err")" -eq 1 ]
check unwritable-out-reason grep -qx "pbcheck: certify: cannot create $tmp/file/reports: Not a directory" "$tmp/err"
check unwritable-out-before-suite [ ! -s "$tmp/out" ]
check unwritable-out-fast [ $(($(date +%s) - start)) -lt 5 ]
# A read-only file system: /proc refuses folders even to root.
"$pbcheck" certify --target reference --out /proc/pbcheck-reports >"$tmp/out" 2>"$tmp/err"
check readonly-out-exit-2 [ $? -eq 2 ]
check readonly-out-reason grep -q "^pbcheck: certify: cannot create /proc/pbcheck-reports: " "$tmp/err"

# A report on a full device: the run folder is prepared (the hidden
# --run-id names it) with report.json a link to /dev/full.
mkdir -p "$tmp/full/run/repro"
ln -s /dev/full "$tmp/full/run/report.json"
"$pbcheck" certify --target reference --quick --out "$tmp/full" --run-id run >"$tmp/out" 2>"$tmp/err"
check full-disk-exit-2 [ $? -eq 2 ]
check full-disk-one-error [ "$(grep -c '^pbcheck: ' "$tmp/err")" -eq 1 ]
check full-disk-message grep -qx "pbcheck: certify: cannot write $tmp/full/run/report.json: No space left on device" "$tmp/err"
check full-disk-no-report-line bash -c '! grep -q "^report: " "$1"' _ "$tmp/out"
# The same for a reproducer, written while the suite runs.
mkdir -p "$tmp/full2/run/repro"
ln -s /dev/full "$tmp/full2/run/repro/fill.dma-100.busy.high.odd-size.pbs"
"$pbcheck" certify --target mutant-fill-tail --quick --all-repros --out "$tmp/full2" --run-id run >"$tmp/out" 2>"$tmp/err"
check full-repro-exit-2 [ $? -eq 2 ]
check full-repro-message grep -qx "pbcheck: certify: cannot write $tmp/full2/run/repro/fill.dma-100.busy.high.odd-size.pbs: No space left on device" "$tmp/err"

# Waivers: every failure of mutant-trunc32 waived -> conformant, each case
# "waived" with its reason in every format.
cat >"$tmp/waivers" <<'EOF'
# Known bugs of the 32-bit truncating builder, tracked upstream.
*/*           PB-GPU-FAULT  2999-12-31  vendor bug 4711: addresses above 4 GiB
*              PB-DIVERGE    2999-12-31  vendor bug 4712 <also above 4 GiB>
discard/*      *             2999-12-31  matches nothing
EOF
"$pbcheck" certify --target mutant-trunc32 --quick --out "$tmp/waived" --waivers "$tmp/waivers" >"$tmp/out" 2>"$tmp/err"
check waived-exit-0 [ $? -eq 0 ]
check waived-verdict grep -q '^verdict: CONFORMANT' "$tmp/out"
check waived-count grep -Eq '^waived: [0-9]+ failing cases, by 3 waivers \(0 expired\)$' "$tmp/out"
r="$tmp/waived/latest/report.json"
check waived-json json "$r" 'r["verdict"] == "pass" and r["failed"] == 0 and r["waived"] > 0 and r["waived"] == sum(c["verdict"] == "waived" for c in r["results"])'
check waived-json-reason json "$r" 'all(c["waiver"]["reason"].startswith("vendor bug 471") and c["waiver"]["where"].endswith(("waivers:2", "waivers:3")) for c in r["results"] if c["verdict"] == "waived")'
check waived-json-matched json "$r" '[w["matched"] > 0 for w in r["waivers"]] == [True, True, False]'
check waived-junit grep -q '<skipped message="waived (.*waivers:3): vendor bug 4712 &lt;also above 4 GiB&gt;"' "$tmp/waived/latest/junit.xml"
check waived-junit-wellformed xmllint --noout "$tmp/waived/latest/junit.xml"
check waived-summary grep -q 'waived: `vendor bug 4711: addresses above 4 GiB`' "$tmp/waived/latest/summary.md"
check waived-html grep -q '<span class="tag waived">waived</span>' "$tmp/waived/latest/index.html"
check waived-html-escaped grep -q 'vendor bug 4712 &lt;also above 4 GiB&gt;' "$tmp/waived/latest/index.html"
check waived-sarif-no-results python3 -c 'import json,sys; sys.exit(json.load(open(sys.argv[1]))["runs"][0]["results"] != [])' "$tmp/waived/latest/report.sarif"

# Only part waived: still not conformant, the rest failed.
grep -v PB-DIVERGE "$tmp/waivers" >"$tmp/some"
"$pbcheck" certify --target mutant-trunc32 --quick --out "$tmp/some-out" --waivers "$tmp/some" >"$tmp/out" 2>&1
check partly-waived-exit-1 [ $? -eq 1 ]
check partly-waived-json json "$tmp/some-out/latest/report.json" 'r["verdict"] == "fail" and r["failed"] > 0 and r["waived"] > 0 and r["rules"]["PB-GPU-FAULT"] == 0'

# An expired waiver fails even a conformant run, and says which.
printf 'fill/*  *  2020-01-31  was fixed long ago\n' >"$tmp/expired"
"$pbcheck" certify --target reference --quick --out "$tmp/expired-out" --waivers "$tmp/expired" >"$tmp/out" 2>"$tmp/err"
check expired-exit-1 [ $? -eq 1 ]
check expired-names-waiver grep -qx "pbcheck: certify: waiver $tmp/expired:1 expired on 2020-01-31 (fill/\* \*): was fixed long ago" "$tmp/err"
check expired-verdict grep -q '^verdict: NOT CONFORMANT' "$tmp/out"
check expired-json json "$tmp/expired-out/latest/report.json" 'r["verdict"] == "fail" and r["expired_waivers"] == 1 and r["waivers"][0]["expired"]'
check expired-html grep -q 'expired on 2020-01-31' "$tmp/expired-out/latest/index.html"

# A malformed waivers file: one line, file:line:col, exit 2, nothing run.
printf '# ok\nfill/*  PB-NO-SUCH  2030-01-01  typo\n' >"$tmp/bad"
"$pbcheck" certify --target reference --out "$tmp/bad-out" --waivers "$tmp/bad" >"$tmp/out" 2>"$tmp/err"
check malformed-exit-2 [ $? -eq 2 ]
check malformed-one-line grep -qx "$tmp/bad:2:9: unknown rule 'PB-NO-SUCH' (see 'pbcheck list rules')" "$tmp/err"
check malformed-before-suite test ! -e "$tmp/bad-out" -a ! -s "$tmp/out"
printf 'fill/*  *  2030-02-30  no such day\n' >"$tmp/bad"
"$pbcheck" certify --target reference --out "$tmp/bad-out" --waivers "$tmp/bad" >"$tmp/out" 2>"$tmp/err"
check bad-date-exit-2 [ $? -eq 2 ]
check bad-date-message grep -qx "$tmp/bad:1:12: '2030-02-30' is not an expiry date: write YYYY-MM-DD" "$tmp/err"
"$pbcheck" certify --target reference --out "$tmp/bad-out" --waivers "$tmp/missing" >"$tmp/out" 2>"$tmp/err"
check missing-waivers-exit-2 [ $? -eq 2 ]
check missing-waivers-message grep -qx "pbcheck: certify: cannot open $tmp/missing: No such file or directory" "$tmp/err"
"$pbcheck" certify --help >"$tmp/out"
check help-waivers grep -q -- '--waivers FILE' "$tmp/out"
check help-waiver-format grep -q 'PATTERN  RULE-or-\*  EXPIRES  REASON' "$tmp/out"

# One reproducer per group of cases failing the same way (the smallest
# case of each), every failing case in a group; --all-repros: one each.
"$pbcheck" certify --target mutant-trunc32 --quick --out "$tmp/groups" >/dev/null 2>&1
check groups-one-repro-each python3 -c 'import json,os,sys
d=json.load(open(sys.argv[1] + "/report.json")); fails=[c for c in d["results"] if c["verdict"] == "fail"]
files=sorted(os.listdir(sys.argv[1] + "/repro")); groups=d["groups"]
ok = len(groups) >= 2 and len(files) == len(groups) < len(fails) and all("repro" in g for g in groups)
ok = ok and all(c.get("group") in {g["id"] for g in groups} for c in fails)
ok = ok and sum(g["cases"] for g in groups) == len(fails)
sys.exit(not ok)' "$tmp/groups/latest"
check groups-summary-bounded [ "$(stat -c %s "$tmp/groups/latest/summary.md")" -le 65536 ]
check groups-summary-lists-them grep -q '^## Failures by group' "$tmp/groups/latest/summary.md"
"$pbcheck" certify --target mutant-trunc32 --quick --all-repros --out "$tmp/allrepros" >/dev/null 2>&1
check all-repros-one-each python3 -c 'import json,os,sys
d=json.load(open(sys.argv[1] + "/report.json"))
sys.exit(len(os.listdir(sys.argv[1] + "/repro")) != d["failed"])' "$tmp/allrepros/latest"

finish
