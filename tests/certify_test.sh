#!/usr/bin/env bash
# pbcheck certify as CI meets it: the reference is conformant; every
# planted-bug builder is not, and the report names its expected rule; the
# reports (in OUT/latest, the run folder) parse with real parsers
# (xmllint, python3's json); a reproducer replays to the same rule.
# Usage: certify_test.sh PBCHECK [PBCHECK_PLAIN]
# PBCHECK_PLAIN, the same pbcheck without the sanitizers (pbcheck_plain of
# a sanitizer build), runs the whole suite on the reference and certifies
# three planted bugs of every four: those check verdicts and reports, at a
# fraction of the sanitized cost. Every fourth planted bug, each
# reproducer's replay and every other run use PBCHECK.
set -u
pbcheck=$1 plain=${2:-$1}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/check.sh"

# The suite alone (--no-random): plain certify adds a fixed random phase of
# its seed, which the provenance and summary.md name; here its cost is
# spared, and the checks below show what the provenance says of each mode.
# The whole suite on the reference is a verdict and reports: PBCHECK_PLAIN
# runs it (test_examples and test_vendor_adapter run the whole suite under
# the sanitizers, the reference builder with it as the oracle's model).
"$plain" certify --target reference --no-random --out "$tmp/reference" >"$tmp/out" 2>/dev/null
check reference-conformant [ $? -eq 0 ]
check no-random-provenance python3 -c 'import json,sys; p=json.load(open(sys.argv[1]))["provenance"]["random_phase"]; sys.exit(p != {"mode": "none", "seed": 1, "cases": 0})' "$tmp/reference/latest/report.json"
check no-random-summary grep -q '^- random phase: `0 cases of seed 1 (none: --quick or --no-random)`$' "$tmp/reference/latest/summary.md"
"$pbcheck" certify --target reference --no-random --time 3 >/dev/null 2>"$tmp/err"
check no-random-and-time-exit-2 [ $? -eq 2 ]
"$pbcheck" certify --help >"$tmp/help"
check help-says-default grep -q 'by default the suite is' "$tmp/help"
check reference-verdict grep -q '^verdict: CONFORMANT' "$tmp/out"
check reference-cases grep -Eq '^certify reference: [0-9]{4,} cases .* 0 failed, 0 skipped, 0 harness bugs$' "$tmp/out"
check reference-junit xmllint --noout "$tmp/reference/latest/junit.xml"
check reference-json python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); sys.exit(r["verdict"]!="pass" or r["failed"]!=0)' "$tmp/reference/latest/report.json"

# The fuzz budget: random valid scenarios after the suite, named by seed.
"$pbcheck" certify --target reference --quick --time 1 --seed 3 --out "$tmp/fuzz" >"$tmp/out" 2>/dev/null
check fuzz-budget-conformant [ $? -eq 0 ]
check fuzz-cases python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); f=[c for c in r["results"] if c["name"].startswith("fuzz/seed-3/")]; sys.exit(len(f) < 10 or any(c["verdict"] != "pass" for c in f))' "$tmp/fuzz/latest/report.json"
check fuzz-provenance python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); p=r["provenance"]["random_phase"]; sys.exit(p["mode"] != "time" or p["seed"] != 3 or p["cases"] != r["random_cases"])' "$tmp/fuzz/latest/report.json"
check fuzz-summary grep -Eq '^- random phase: `[0-9]+ cases of seed 3 \(--time\)`$' "$tmp/fuzz/latest/summary.md"
# The phase's rate: in the closing line and report.json, from its own cases.
check fuzz-rate-line grep -Eq '^random phase: [0-9]+ cases in [0-9.]+ s, [0-9]+ a second \(seed 3\)$' "$tmp/out"
check fuzz-rate-json python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); sys.exit(not (0 < r["random_seconds"] <= 2 and abs(r["random_cases_per_second"] - r["random_cases"] / r["random_seconds"]) < 1))' "$tmp/fuzz/latest/report.json"
"$pbcheck" certify --target mutant-fill-tail --quick --time 1 --out "$tmp/fuzz-mutant" >"$tmp/out" 2>/dev/null
check fuzz-finds-bugs python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); sys.exit(not any(c["name"].startswith("fuzz/") and c["verdict"] == "fail" for c in r["results"]))' "$tmp/fuzz-mutant/latest/report.json"
# --large adds the transfer beyond 4 GiB (TransferSize over 32 bits), to
# --quick too; the reference passes it.
"$pbcheck" certify --target reference --quick --large --out "$tmp/large" >"$tmp/out" 2>/dev/null
check large-conformant [ $? -eq 0 ]
check large-has-over-4g python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); sys.exit(not any(c["name"] == "size/transfer-within-seg/over-4g/dma-64k" and c["verdict"] == "pass" for c in r["results"]))' "$tmp/large/latest/report.json"
"$pbcheck" certify --target reference --time x >/dev/null 2>"$tmp/err"
check bad-time-exit-2 [ $? -eq 2 ]

# A hostile output folder (quotes, markup, a newline, a byte that is not
# UTF-8): the reports still parse, and a printed replay command, pasted
# into bash, runs the reproducer.
hostile="$tmp/$(printf 'a"b<c>&d\n\xff x')"
"$pbcheck" certify --target reference --quick --out "$hostile" >"$tmp/out" 2>/dev/null
check hostile-reference-exit [ $? -eq 0 ]
check hostile-reference-junit xmllint --noout "$hostile/latest/junit.xml"
check hostile-reference-json python3 -m json.tool "$hostile/latest/report.json" >/dev/null
hostile="$tmp/$(printf 'm"u<t>&\n\xff x')"
"$pbcheck" certify --target mutant-trunc32 --quick --out "$hostile" >"$tmp/out" 2>/dev/null
check hostile-mutant-exit [ $? -eq 1 ]
check hostile-mutant-junit xmllint --noout "$hostile/latest/junit.xml"
check hostile-mutant-json python3 -m json.tool "$hostile/latest/report.json" >/dev/null
bindir=$(cd "$(dirname "$pbcheck")" && pwd)
replay=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print([c["replay"] for c in r["results"] if "replay" in c][0])' "$hostile/latest/report.json")
check hostile-replay-one-line [ "$(printf '%s\n' "$replay" | wc -l)" -eq 1 ]
PATH="$bindir:$PATH" bash -c "$replay" >"$tmp/replay.out" 2>&1
check hostile-replay-runs [ $? -eq 1 ]
check hostile-replay-fails grep -q '^FAIL ' "$tmp/replay.out"
repro_line=$(python3 -c 'import glob,sys; f=sorted(glob.glob(sys.argv[1] + "/*/latest/repro/*.pbs"))[0]; sys.stdout.buffer.write(open(f,"rb").read().split(b"\n")[1][2:])' "$tmp")
PATH="$bindir:$PATH" bash -c "$repro_line" >"$tmp/replay.out" 2>&1
check hostile-repro-comment-runs grep -q '^run: 0 passed, 1 failed' "$tmp/replay.out"

"$pbcheck" list targets | awk '/^mutant-/ {print $1, $NF}' | tr -d ']' >"$tmp/mutants"
check some-mutants [ "$(wc -l <"$tmp/mutants")" -ge 14 ]
n=0
while read -r name rule; do
    out="$tmp/$name"
    certifier=$plain
    # Every fourth under the sanitizers; not the 32-bit fill size, whose
    # 4 GiB fills take minutes there (the reference's --large run has them).
    [ $((n++ % 4)) -eq 0 ] && [ "$name" != mutant-fill-size32 ] && certifier=$pbcheck
    "$certifier" certify --target "$name" --quick --out "$out" >"$out.txt" 2>/dev/null
    check "$name-fails" [ $? -eq 1 ]
    check "$name-rule-$rule" awk -v r="$rule" '$1 == r && $2 > 0 {found=1} END {exit !found}' "$out.txt"
    check "$name-junit" xmllint --noout "$out/latest/junit.xml"
    check "$name-json" python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); sys.exit(r["rules"][sys.argv[2]] == 0)' "$out/latest/report.json" "$rule"
    repro=$(grep -l "^# .*: $rule\$" "$out"/latest/repro/*.pbs | head -1)
    "$pbcheck" run "$repro" --target "$name" >"$out.replay" 2>&1
    check "$name-replays" grep -q "^FAIL .* $rule\$" "$out.replay"
done <"$tmp/mutants"

finish
