#!/usr/bin/env bash
# SIGINT and SIGTERM during `certify --time 30` stop it within seconds with
# 130 or 143, and the reports of the cases that ran are complete and valid,
# marked interrupted (report.json, junit.xml).
# Usage: interrupt_test.sh PBCHECK
set -u
pbcheck=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passes=0 fails=0
check() { # check NAME CONDITION-COMMAND...
    local name=$1
    shift
    if "$@"; then passes=$((passes + 1)); else echo "FAIL $name"; fails=$((fails + 1)); fi
}
for sig in INT TERM; do
    out=$tmp/$sig
    "$pbcheck" certify --target reference --quick --time 30 --out "$out" >"$tmp/$sig.log" 2>&1 &
    pid=$!
    sleep 3
    kill -"$sig" $pid
    start=$(date +%s)
    wait $pid
    rc=$?
    want=130
    [ "$sig" = TERM ] && want=143
    check "$sig-exit-$want" [ $rc -eq $want ]
    check "$sig-stops-promptly" [ $(($(date +%s) - start)) -le 10 ]
    check "$sig-says-interrupted" grep -q "verdict: INTERRUPTED by SIG$sig" "$tmp/$sig.log"
    dir=$out
    [ -e "$out/latest/report.json" ] && dir=$out/latest
    check "$sig-report-json" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
n = len(d["results"])
assert n > 0 and d["passed"] == n, (n, d["passed"])
assert d.get("interrupted", True) in (True, 1), d.get("interrupted")
' "$dir/report.json"
    check "$sig-junit-xml" xmllint --noout "$dir/junit.xml"
done
echo "$passes passed, $fails failed"
[ "$fails" -eq 0 ]
