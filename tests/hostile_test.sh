#!/usr/bin/env bash
# Certification survives its builder: for each hostile builder (a segfault,
# abort, exit(0), endless loop, endless INSUFFICIENT_DMA_BUFFER, a 100 GiB
# malloc, a stack overflow, raise(SIGKILL), a wild write into harness
# memory, each on every Fill: tests/external/hostile.c) one `certify` run
# completes, passes the good cases, fails the Fill cases with the expected
# class, writes valid reports, and a reproducer replays the same class.
# Usage: hostile_test.sh PBCHECK SOURCE_DIR KIND=LIB...
set -u
pbcheck=$1 src=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/check.sh"
expect_class() { # the class (or rule) a kind's Fill cases must fail with
    case $1 in
    segfault) echo 'crash: SIG(SEGV|BUS).* in .*hostile|crash: .*SEGV.*hostile' ;;
    stack | wild) echo 'crash' ;;
    abort) echo 'crash' ;;
    sigkill) echo 'crash: SIGKILL' ;;
    exit) echo 'exit: .*exit status 0' ;;
    loop) echo 'timeout' ;;
    insufficient) echo 'PB-NO-PROGRESS' ;;
    malloc) echo '(crash|oom)' ;;
    esac
}
for pair in "$@"; do
    kind=${pair%%=*} lib=${pair#*=}
    out=$tmp/$kind
    timeout 600 "$pbcheck" certify --quick --target "$lib" --case-timeout 3 --memory-limit 1G --out "$out" \
        >"$tmp/$kind.log" 2>&1
    rc=$?
    check "$kind-completes-not-conformant" [ $rc -eq 1 ]
    check "$kind-verdict-printed" grep -q 'verdict: NOT CONFORMANT' "$tmp/$kind.log"
    check "$kind-good-cases-pass" grep -Eq ': [1-9][0-9]* passed, [1-9][0-9]* failed' "$tmp/$kind.log"
    dir=$out
    [ -e "$out/latest/report.json" ] && dir=$out/latest
    check "$kind-report-json" python3 -m json.tool "$dir/report.json" >/dev/null
    check "$kind-junit-xml" xmllint --noout "$dir/junit.xml"
    want=$(expect_class "$kind")
    # Every failing case failed the way this builder misbehaves.
    python3 - "$dir/report.json" "$want" >"$tmp/$kind.classes" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
bad = [r for r in d["results"] if r["verdict"] != "pass"]
first = [(r.get("message") or "").split("\n")[0] for r in bad]
ok = bad and all(re.match(sys.argv[2], (r.get("isolation") or r.get("rule") or "") + ": " + m) or
                 re.match(sys.argv[2], m) for r, m in zip(bad, first))
print("\n".join(first[:3]))
sys.exit(0 if ok else 1)
PY
    check "$kind-classified-as-$want" [ $? -eq 0 ] || cat "$tmp/$kind.classes"
    repro=$(ls "$dir"/repro/*.pbs 2>/dev/null | head -1)
    check "$kind-has-reproducer" [ -n "$repro" ]
    if [ -n "$repro" ]; then
        timeout 120 "$pbcheck" run "$repro" --target "$lib" --case-timeout 3 --memory-limit 1G >"$tmp/$kind.replay" 2>&1
        check "$kind-replay-fails" [ $? -eq 1 ]
        check "$kind-replay-same-class" grep -Eq "$want" "$tmp/$kind.replay"
    fi
done
# A scenario that takes long says so while it runs.
for pair in "$@"; do
    [ "${pair%%=*}" = loop ] || continue
    "$pbcheck" run "$src/corpus/seeds/fill-basic.pbs" --target "${pair#*=}" --case-timeout 11 \
        >"$tmp/still.out" 2>"$tmp/still.err"
    check loop-run-fails [ $? -eq 1 ]
    check loop-still-judging grep -q "^pbcheck: still judging .*fill-basic.pbs after 10 s$" "$tmp/still.err"
    check loop-timeout-line grep -q "timeout: no answer within 11 s" "$tmp/still.out"
done
finish
