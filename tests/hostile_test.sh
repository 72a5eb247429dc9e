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
# Without the seccomp filter (PBC_ISO_NO_SECCOMP=1, the fallback) certify
# runs only when asked to run unconfined.
unconfined=()
[ "${PBC_ISO_NO_SECCOMP:-0}" = 1 ] && unconfined=(--allow-unconfined)
narrow=(--cases "$fill_cases") # check.sh
expect_class() { # the class (or rule) a kind's Fill cases must fail with
    case $1 in
    segfault) echo 'crash: SIG(SEGV|BUS).* in .*hostile|crash: .*SEGV.*hostile' ;;
    stack | wild) echo 'crash' ;;
    abort) echo 'crash' ;;
    sigkill) echo 'crash: SIGKILL' ;;
    exit) echo 'exit: .*exit status 0' ;;
    parentkill | parentstop | parentterm | groupint)
        if [ "${PBC_ISO_NO_SECCOMP:-0}" = 1 ]; then # the fallback: the signal lands, and is blamed
            echo 'crash: (the builder sent SIG(TERM|INT|KILL|STOP) to pbcheck|SIGINT|SIGSYS)'
        else
            echo 'crash: SIGSYS .*the sandbox forbids'
        fi ;;
    sigio | cloneparent | unreaper) echo 'crash: SIGSYS .*the sandbox forbids' ;;
    fdwrite) # in process its own answer pipe is all it can reach; split, its driver process's link socket
        if [ "${PBCHECK_SPLIT:-1}" = 0 ]; then
            echo "crash: the worker's answer is garbled"
        else
            echo "crash: the driver process wrote on its link's socket"
        fi ;;
    escape) echo 'escape: the builder left [0-9]+ process(es)? running after its case \(killed: pid ' ;;
    lastwords) echo 'crash' ;;
    ctorexit) echo 'exit: the builder could not be loaded: .*exit status 0' ;;
    ctorsegv | getsegv) echo 'crash: the builder could not be loaded: .*SEGV' ;; # SIGSEGV, or ASan's SEGV
    ctorloop) echo 'timeout: the builder could not be loaded: no answer within 3 s' ;;
    loop) echo 'timeout' ;;
    insufficient) echo 'PB-NO-PROGRESS' ;;
    malloc) echo '(crash|oom)' ;;
    esac
}
for pair in "$@"; do
    kind=${pair%%=*} lib=${pair#*=}
    out=$tmp/$kind
    if [ "$kind" = nothing ]; then # declares no operation: nothing is judged, so no pass
        "$pbcheck" certify --quick --target "$lib" "${unconfined[@]}" --out "$out" >"$tmp/$kind.log" 2>&1
        check nothing-not-conformant-exit-1 [ $? -eq 1 ]
        check nothing-incomplete-says-why grep -q '^verdict: INCOMPLETE: no case was judged' "$tmp/$kind.log"
        check nothing-report-incomplete python3 -c 'import json,sys; d=json.load(open(sys.argv[1]));
sys.exit(0 if d["verdict"] == "incomplete" and d["incomplete_reason"] == "no case was judged" else 1)' \
            "$out/latest/report.json"
        # waived failures alone certify nothing either
        printf 'load * 2099-12-31 the library is known not to load\n' >"$tmp/waive-load"
        "$pbcheck" certify --quick --target "${lib%/*}/libhostile_ctorexit.so" "${unconfined[@]}" --waivers "$tmp/waive-load" \
            --out "$tmp/waived" >"$tmp/waived.log" 2>&1
        check waived-only-exit-1 [ $? -eq 1 ]
        check waived-only-incomplete grep -q '^verdict: INCOMPLETE: no case was judged' "$tmp/waived.log"
        # and a library is never run in pbcheck's own process by certify
        "$pbcheck" certify --quick --target "$lib" --no-fork --out "$tmp/nofork" >"$tmp/nofork.log" 2>&1
        check no-fork-library-refused [ $? -eq 2 ]
        check no-fork-library-says-why grep -q "^pbcheck: certify: --no-fork would run the builder library" "$tmp/nofork.log"
        continue
    fi
    started=$(date +%s)
    # The endless loop is a timeout of the case limit for every Fill case,
    # each burning a core: a quarter of a second keeps it short (a case
    # that passes takes a few milliseconds).
    limit=3
    [ "$kind" = loop ] && limit=0.25
    timeout 600 "$pbcheck" certify --quick "${narrow[@]}" --target "$lib" "${unconfined[@]}" --case-timeout $limit \
        --memory-limit 1G --out "$out" \
        >"$tmp/$kind.log" 2>&1
    rc=$?
    if [ ${#unconfined[@]} -ne 0 ] && case $kind in parentkill | parentstop | parentterm) true ;; *) false ;; esac; then
        # The fallback: where the PID namespace hides pbcheck (the signal
        # lands on the namespace's init, which ignores it) or Landlock
        # scopes signals, nothing arrives and every case passes; elsewhere
        # it arrives and is blamed. Either way pbcheck lives on.
        check "$kind-pbcheck-survives" [ $rc -eq 0 -o $rc -eq 1 ]
        check "$kind-verdict-printed" grep -q '^verdict: ' "$tmp/$kind.log"
        continue
    fi
    check "$kind-completes-not-conformant" [ $rc -eq 1 ]
    check "$kind-verdict-printed" grep -q 'verdict: NOT CONFORMANT' "$tmp/$kind.log"
    # Nothing the builder started outlives certify.
    check "$kind-nothing-left-running" sh -c '! pgrep -x pbc-escapee >/dev/null'
    case $kind in
    ctor* | getsegv) # never loaded: one failing case, 'load', within the case limit
        check "$kind-within-limits" [ $(($(date +%s) - started)) -lt 60 ]
        check "$kind-one-load-case" grep -Eq ': 0 passed, 1 failed' "$tmp/$kind.log"
        check "$kind-says-not-loaded" grep -Eq '^[a-z]+: the builder could not be loaded: ' "$tmp/$kind.log"
        timeout 60 "$pbcheck" run "$src/corpus/seeds/fill-basic.pbs" --target "$lib" --case-timeout 3 \
            >"$tmp/$kind.run" 2>&1
        check "$kind-run-fails-not-usage" [ $? -eq 1 ]
        check "$kind-run-says-why" grep -Eq "could not be loaded: $(expect_class "$kind" | sed 's/: the builder could not be loaded: /: /')" "$tmp/$kind.run"
        ;;
    *) check "$kind-good-cases-pass" grep -Eq ': [1-9][0-9]* passed, [1-9][0-9]* failed' "$tmp/$kind.log" ;;
    esac
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
    if [ "$kind" = fdwrite ]; then # nothing of pbcheck's is open in a worker
        check fdwrite-journal-not-forged sh -c "! grep -q forged '$dir/journal.jsonl'"
        check fdwrite-stdout-not-forged sh -c "! grep -q forged '$tmp/$kind.log'"
        # Split, each case that wrote on the link's socket fails itself (the
        # worker looks after every case): the cases that fail are the Fill
        # cases, as for segfault, not one found later at a nap.
        if [ "${PBCHECK_SPLIT:-1}" != 0 ] && [ -e "$tmp/segfault/latest/report.json" ]; then
            check fdwrite-fails-each-case-that-wrote python3 -c 'import json,sys
f=lambda p: sorted(r["name"] for r in json.load(open(p))["results"] if r["verdict"] != "pass")
a, b = f(sys.argv[1]), f(sys.argv[2])
print(len(a), "failing cases; segfault:", len(b)); sys.exit(0 if a == b else 1)' "$dir/report.json" \
                "$tmp/segfault/latest/report.json"
        fi
    fi
    if [ "$kind" = lastwords ]; then # the DbgPrint before the crash is in the crashing case's report
        check lastwords-dbgprint-in-report python3 - "$dir/report.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
bad = [r for r in d["results"] if r.get("isolation") == "crash"]
sys.exit(0 if bad and all("last words before the crash, fill of 42 bytes" in (r.get("debug_output") or "")
                          for r in bad) else 1)
PY
        check lastwords-dbgprint-in-junit grep -q 'last words before the crash' "$dir/junit.xml"
        check lastwords-dbgprint-in-html grep -q 'last words before the crash' "$dir/index.html"
    fi
    repro=$(ls "$dir"/repro/*.pbs 2>/dev/null | head -1)
    case $kind in ctor* | getsegv) repro= ;; esac # nothing to replay but the loading
    [ -n "$repro" ] || case $kind in ctor* | getsegv) ;; *) check "$kind-has-reproducer" false ;; esac
    if [ -n "$repro" ]; then
        timeout 120 "$pbcheck" run "$repro" --target "$lib" --case-timeout 3 --memory-limit 1G >"$tmp/$kind.replay" 2>&1
        check "$kind-replay-fails" [ $? -eq 1 ]
        check "$kind-replay-same-class" grep -Eq "$want" "$tmp/$kind.replay"
    fi
done
# The same confinement as an ordinary user (no privilege at all): run as
# nobody when this test runs as root and nobody can reach the binaries.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
    for pair in "$@"; do
        kind=${pair%%=*} lib=${pair#*=}
        case $kind in parentkill | escape) ;; *) continue ;; esac
        as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
        if ! as_nobody test -x "$pbcheck" -a -r "$lib"; then
            echo "skipped: as an ordinary user: nobody cannot reach $pbcheck or $lib"
            continue
        fi
        mkdir -p "$tmp/nobody-$kind"
        chmod 777 "$tmp" "$tmp/nobody-$kind"
        as_nobody "$pbcheck" certify --quick "${narrow[@]}" --target "$lib" "${unconfined[@]}" --case-timeout 3 \
            --out "$tmp/nobody-$kind/out" \
            >"$tmp/nobody-$kind.log" 2>&1
        rc=$?
        if [ ${#unconfined[@]} -ne 0 ] && [ "$kind" = parentkill ]; then # as above: nothing may arrive
            check "nobody-$kind-pbcheck-survives" [ $rc -eq 0 -o $rc -eq 1 ]
            continue
        fi
        check "nobody-$kind-not-conformant" [ $rc -eq 1 ]
        check "nobody-$kind-classified" python3 - "$tmp/nobody-$kind/out/latest/report.json" "$(expect_class "$kind")" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
bad = [r for r in d["results"] if r["verdict"] != "pass"]
sys.exit(0 if bad and all(re.match(sys.argv[2], r["message"]) for r in bad) else 1)
PY
        check "nobody-$kind-nothing-left-running" sh -c '! pgrep -x pbc-escapee >/dev/null'
    done
fi
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
