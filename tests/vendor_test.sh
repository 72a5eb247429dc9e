#!/usr/bin/env bash
# A vendor's declared adapter (tests/external/ext_vendor.c: one memory
# segment and one aperture at 3 GiB declared not cache-coherent, asserting
# on a coherent map): the seed corpus runs on it with at most a handful of
# skips, each with its reason, and certify finds it CONFORMANT (no
# coherent map asked of it); its TransferOffset bug fails with PB-DIVERGE,
# and only on split transfers. A worker that drains every submission it
# has been handed (variant-drain-worker) passes the seeds, certify and a
# minute of random cases: Windows hands a paging buffer over only once
# the work it follows is done.
# Usage: vendor_test.sh PBCHECK SOURCE_DIR LIB_VENDOR LIB_VENDOR_BUG [SECONDS]
set -u
pbcheck=$1 src=$2 vendor=$3 bug=$4 seconds=${5:-60}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/check.sh"

"$pbcheck" run "$src"/corpus/seeds/*.pbs --target "$vendor" >"$tmp/out" 2>&1
check vendor-seeds-exit-0 [ $? -eq 0 ]
skipped=$(sed -nE 's/^run: [0-9]+ passed, 0 failed, ([0-9]+) skipped$/\1/p' "$tmp/out")
check vendor-seeds-none-failed [ -n "$skipped" ]
check vendor-seeds-few-skips [ "${skipped:-99}" -le 5 ]
check vendor-seeds-skips-say-why [ "$(grep -c '^skip' "$tmp/out")" -eq "$(grep -c '^skip.*: ' "$tmp/out")" ]
check vendor-seeds-no-assert bash -c "! grep -q PB-ASSERT '$tmp/out'"

"$pbcheck" certify --target "$vendor" --no-random --out "$tmp/cert" >"$tmp/out" 2>&1
check vendor-certify-exit-0 [ $? -eq 0 ]
check vendor-certify-conformant grep -q 'verdict: CONFORMANT' "$tmp/out"
check vendor-certify-none-skipped grep -Eq ': [0-9]+ passed, 0 failed, 0 skipped, 0 harness bugs$' "$tmp/out"
"$pbcheck" certify --quick --time 5 --seed 3 --target "$vendor" --out "$tmp/cert-random" >"$tmp/out" 2>&1
check vendor-random-conformant grep -q 'verdict: CONFORMANT' "$tmp/out"

# The planted bug: every failing case is a split transfer, and PB-DIVERGE.
# The quick suite has every transfer group split and not, and every story;
# a reproducer for each failing case (--all-repros) is the dear part: each
# is minimized and its wrong byte traced to its writer.
"$pbcheck" certify --target "$bug" --quick --all-repros --out "$tmp/bug" >"$tmp/out" 2>&1
check bug-certify-exit-1 [ $? -eq 1 ]
check bug-not-conformant grep -q 'verdict: NOT CONFORMANT' "$tmp/out"
python3 - "$tmp/bug/latest" <<'PY' >"$tmp/split" 2>&1
import json, os, re, sys
run = sys.argv[1]
results = json.load(open(os.path.join(run, "report.json")))["results"]
failed = [r for r in results if r["verdict"] != "pass"]
rules = {r["rule"] for r in failed}
unsplit = []
for r in failed:
    text = open(os.path.join(run, "repro", r["name"].replace("/", ".") + ".pbs")).read()
    if not re.search(r"split=([2-9]|[1-9][0-9])", text):
        unsplit.append(r["name"])
print("failed", len(failed), "rules", sorted(rules), "unsplit", unsplit[:5])
sys.exit(0 if failed and rules == {"PB-DIVERGE"} and not unsplit else 1)
PY
check bug-diverges-only-on-split [ $? -eq 0 ]
"$pbcheck" run "$src"/corpus/seeds/*.pbs --target "$bug" >"$tmp/out" 2>&1
check bug-seeds-fail [ $? -eq 1 ]
check bug-seeds-only-diverge bash -c "[ \"\$(grep -c '^FAIL' '$tmp/out')\" -eq \"\$(grep -c '^FAIL .*PB-DIVERGE$' '$tmp/out')\" ]"
for f in $(grep '^FAIL' "$tmp/out" | awk '{print $2}'); do
    check "bug-seed-split-$(basename "$f")" grep -Eq 'split=([2-9]|[1-9][0-9])' "$f"
done

# The draining worker.
"$pbcheck" run "$src"/corpus/seeds/*.pbs --target variant-drain-worker >"$tmp/out" 2>&1
check drain-seeds-exit-0 [ $? -eq 0 ]
check drain-seeds-none-failed grep -Eq '^run: [0-9]+ passed, 0 failed, [0-9]+ skipped$' "$tmp/out"
# The quick suite, then SECONDS of random cases, in one run (the whole
# suite and a minute of random cases: docs/variants.md, measured by hand).
"$pbcheck" certify --quick --time "$seconds" --target variant-drain-worker --out "$tmp/drain-time" >"$tmp/out" 2>&1
check drain-certify-time-conformant grep -q 'verdict: CONFORMANT' "$tmp/out"
check drain-certify-time-ran-random python3 -c 'import json,sys; d=json.load(open(sys.argv[1]));
sys.exit(0 if d["random_cases"] > 0 and d["failed"] == 0 and d["harness_bugs"] == 0 else 1)' "$tmp/drain-time/latest/report.json"

finish
