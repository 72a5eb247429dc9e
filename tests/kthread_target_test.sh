#!/usr/bin/env bash
# A builder whose paging work is done by the adapter's own system thread
# (tests/external/ext_kthread.c: StartDevice starts it, SubmitCommand sets
# its event, it copies with the CPU through MDL and segment views and
# writes a completion register): its work is the submission's, run where
# SubmitCommand woke it in the paging engine's order, so it passes the
# seeds and certify finds it CONFORMANT. The same thread with a one-line
# TransferOffset bug in its copy fails PB-DIVERGE and nothing else.
# Usage: kthread_target_test.sh PBCHECK SOURCE_DIR LIB LIB_BUG
set -u
pbcheck=$1 src=$2 lib=$3 bug=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/check.sh"

"$pbcheck" run "$src"/corpus/seeds/*.pbs --target "$lib" >"$tmp/out" 2>&1
check seeds-exit-0 [ $? -eq 0 ] || tail -20 "$tmp/out"
check seeds-none-failed grep -Eq '^run: [1-9][0-9]* passed, 0 failed' "$tmp/out"
"$pbcheck" certify --quick --target "$lib" --out "$tmp/cert" >"$tmp/out" 2>&1
check certify-exit-0 [ $? -eq 0 ] || tail -20 "$tmp/out"
check certify-conformant grep -q 'verdict: CONFORMANT' "$tmp/out"

"$pbcheck" certify --quick --target "$bug" --out "$tmp/bug" >"$tmp/out" 2>&1
check bug-certify-exit-1 [ $? -eq 1 ] || tail -20 "$tmp/out"
check bug-not-conformant grep -q 'verdict: NOT CONFORMANT' "$tmp/out"
python3 - "$tmp/bug/latest" <<'PY' >"$tmp/rules" 2>&1
import json, os, sys
results = json.load(open(os.path.join(sys.argv[1], "report.json")))["results"]
rules = {r["rule"] for r in results if r["verdict"] not in ("pass", "skip")}
print(sorted(rules))
sys.exit(0 if rules == {"PB-DIVERGE"} else 1)
PY
check bug-fails-only-diverge [ $? -eq 0 ] || cat "$tmp/rules"
finish
