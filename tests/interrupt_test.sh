#!/usr/bin/env bash
# SIGINT and SIGTERM during `certify --time 30` stop it within seconds with
# 130 or 143, and the reports of the cases that ran are complete and valid,
# marked interrupted (report.json, junit.xml); SIGKILL leaves the journal.
# Usage: interrupt_test.sh PBCHECK
set -u
pbcheck=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/check.sh"
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
assert d["interrupted"] is True, d.get("interrupted")
assert d["verdict"] == "incomplete", d["verdict"]
' "$dir/report.json"
    check "$sig-junit-xml" xmllint --noout "$dir/junit.xml"
done
# In a pipe, progress is a plain line every five seconds, with the time left.
"$pbcheck" certify --target reference --quick --time 7 --out "$tmp/progress" >/dev/null 2>"$tmp/progress.err"
check progress-in-pipe grep -Eq '^certify( --time)?: [0-9/]+ done, 0 failed, [0-9]+/s(, [0-9]+ s left)?$' "$tmp/progress.err"
check progress-no-carriage-return [ -z "$(tr -cd '\r' <"$tmp/progress.err")" ]

# Killed outright, certify leaves no report, but its journal says what the
# cases that ran found, one JSON line each.
"$pbcheck" certify --target mutant-trunc32 --quick --time 30 --out "$tmp/KILL" >"$tmp/KILL.log" 2>&1 &
pid=$!
for _ in $(seq 120); do # until it has judged a good number of cases, however busy the machine
    [ "$(cat "$tmp/KILL/latest/journal.jsonl" 2>/dev/null | wc -l)" -gt 150 ] && break
    sleep 0.5
done
kill -KILL $pid
wait $pid 2>/dev/null
check kill-journal python3 -c '
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
assert len(lines) > 100, len(lines)
assert any(l["verdict"] == "fail" and l["rule"].startswith("PB-") for l in lines)
' "$tmp/KILL/latest/journal.jsonl"

finish
