#!/usr/bin/env bash
# pbcheck trusts no byte it receives from a builder (issue 37, parts 3 and
# 4). For each wrong builder of tests/external/attack_input.c (its Fill
# writes the wrong value, and it attacks what pbcheck reads from it):
# certify exits 1 with NOT CONFORMANT within its limits, report.json and
# summary.md say so, no process of it is left, and the attack itself
# failed: no hang (linger), no harness abort (describe, verdict, triage),
# no forged line on stdout (newline), no report outside ./reports
# (dotdot), no shell command run (shell), the aborting function named
# (tailabort). Then the paths pbcheck is given (a FIFO, dangling and
# looping --out links: one line, exit 2), SIGHUP and SIGQUIT (partial
# reports, as SIGINT and SIGTERM leave) and full RELRO.
# With the judge across the DDI (the default; PBCHECK_SPLIT=0 puts it
# beside the builder) a forged answer cannot even be written: the
# builder's driver process holds no pipe of the judge's, and the attack
# ends that process instead (class exit).
# Usage: hostile_input_test.sh PBCHECK SOURCE_DIR KIND=LIB...
set -u
forged_class=crash forged_message="^crash: the worker's answer is garbled"
if [ "${PBCHECK_SPLIT:-1}" != 0 ]; then
    forged_class=exit forged_message="^exit: the builder ended the process"
fi
pbcheck=$(realpath "$1") src=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/check.sh"

# The run's verdict and failures as the files on disk have them.
says_fail() { # says_fail DIR [MESSAGE-REGEX]
    python3 - "$1" "${2:-}" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1] + "/report.json"))
summary = open(sys.argv[1] + "/summary.md").read()
bad = [r for r in d["results"] if r["verdict"] != "pass"]
ok = (d["verdict"] == "fail" and "**Verdict: NOT CONFORMANT**" in summary and bad
      and all(r["verdict"] == "fail" for r in bad) and d["harness_bugs"] == 0)
if ok and sys.argv[2]:
    ok = any(re.search(sys.argv[2], r.get("message") or "") for r in bad)
if not ok:
    print(d["verdict"], [(r["name"], r["verdict"], (r.get("message") or "")[:120]) for r in bad[:3]])
sys.exit(0 if ok else 1)
PY
}
no_escape() { python3 -c 'import sys; sys.exit(b"\x1b" in open(sys.argv[1], "rb").read())' "$1"; }
nothing_left() { ! pgrep -f -- "--target $1" >/dev/null; }

for pair in "$@"; do
    kind=${pair%%=*} lib=${pair#*=}
    if [ "$kind" = triage ]; then # triage's answers: the wrong size is the builder's failure, not an abort
        mkdir -p "$tmp/triage-in"
        cp "$src/corpus/seeds/fill-basic.pbs" "$tmp/triage-in/"
        timeout 120 "$pbcheck" triage "$tmp/triage-in" --target "$lib" --case-timeout 3 --out "$tmp/triage-out" \
            >"$tmp/triage.log" 2>&1
        check triage-fails-not-aborts [ $? -eq 1 ]
        check triage-no-harness-bug sh -c "! grep -q 'harness bug' '$tmp/triage.log'"
        check triage-garbled-bucket python3 -c 'import json,sys
d=json.load(open(sys.argv[1]))
sys.exit(not any(b["facts"]["class"] == sys.argv[2] for b in d["buckets"]))' "$tmp/triage-out/triage.json" "$forged_class"
        check triage-nothing-left nothing_left "$lib"
        continue
    fi
    cwd=$tmp/$kind-cwd/a/b # the reports go under ./reports of this folder, and nowhere else
    mkdir -p "$cwd"
    out=(--out "$tmp/$kind")
    case $kind in newline | dotdot) out=() ;; esac # the default, reports/NAME, is what they attack
    started=$(date +%s)
    (cd "$cwd" && timeout -s KILL 300 "$pbcheck" certify --quick --cases "$fill_cases" --target "$lib" \
        --case-timeout 3 "${out[@]}" \
        >"$tmp/$kind.log" 2>&1)
    rc=$?
    check "$kind-exit-1" [ $rc -eq 1 ]
    check "$kind-within-limits" [ $(($(date +%s) - started)) -lt 240 ]
    check "$kind-not-conformant" grep -q '^verdict: NOT CONFORMANT' "$tmp/$kind.log"
    check "$kind-nothing-left" nothing_left "$lib"
    dir=$tmp/$kind/latest
    [ ${#out[@]} -eq 0 ] && dir=$(find "$cwd/reports" -mindepth 2 -maxdepth 2 -name latest | head -1)
    case $kind in
    linger) check linger-files-say-fail says_fail "$dir" ;;
    describe) check describe-files-say-fail says_fail "$dir" "^crash: the builder could not be loaded: the worker's answer is garbled" ;;
    verdict) check verdict-files-say-fail says_fail "$dir" "$forged_message" ;;
    shell)
        check shell-files-say-fail says_fail "$dir" "^crash: SIGABRT"
        check shell-no-command-run [ ! -e "$cwd/pbc-pwned" ]
        ;;
    tailabort)
        check tailabort-files-say-fail says_fail "$dir" "^crash: SIGABRT"
        if [ "$(uname -m)" = x86_64 ]; then # the call's function, not the one after it
            check tailabort-names-its-function says_fail "$dir" "^crash: SIGABRT \(signal 6\) in attack_tail_abort at "
        fi
        ;;
    newline)
        check newline-files-say-fail says_fail "$dir"
        check newline-one-verdict-line [ "$(grep -c '^verdict:' "$tmp/$kind.log")" -eq 1 ]
        check newline-no-escape-on-stdout no_escape "$tmp/$kind.log"
        check newline-shown-escaped grep -q 'certify attack\\x0a\\x1b\[8mverdict: CONFORMANT' "$tmp/$kind.log"
        check newline-folder-printable python3 -c 'import os,sys
sys.exit(not all(n.isprintable() for n in os.listdir(sys.argv[1])))' "$cwd/reports"
        # run, replay and disasm print a worker's verdict lines, messages
        # and output only made safe: what the builder printed cannot reach
        # the terminal as it is.
        for verb in run replay disasm; do
            input=$src/corpus/seeds/fill-basic.pbs
            [ $verb = replay ] && input=$tmp/encoded/fill-basic.bin &&
                "$pbcheck" encode "$src/corpus/seeds/fill-basic.pbs" --out "$tmp/encoded" >/dev/null
            timeout -s KILL 60 "$pbcheck" $verb "$input" --target "$lib" --trace >"$tmp/$verb.out" 2>&1
            rc=$?
            [ $verb = disasm ] || check "newline-$verb-fails" [ $rc -eq 1 ]
            check "newline-$verb-no-escape" no_escape "$tmp/$verb.out"
            [ $verb = disasm ] || check "newline-$verb-no-forged-pass" sh -c "! grep -q '^pass  forged' '$tmp/$verb.out'"
        done
        ;;
    dotdot)
        check dotdot-files-say-fail says_fail "$dir"
        check dotdot-only-reports [ "$(ls -A "$cwd")" = reports ]
        check dotdot-nothing-above [ "$(ls -A "$tmp/$kind-cwd")" = a ] && [ "$(ls -A "$tmp/$kind-cwd/a")" = b ]
        ;;
    esac
done

# A scenario that is a FIFO with no writer: one line, exit 2, at once.
mkfifo "$tmp/fifo.pbs"
timeout -s KILL 20 "$pbcheck" run "$tmp/fifo.pbs" --target reference >"$tmp/fifo.out" 2>"$tmp/fifo.err"
check fifo-scenario-exit-2 [ $? -eq 2 ]
check fifo-scenario-one-line [ "$(wc -l <"$tmp/fifo.err")" -eq 1 ]
check fifo-scenario-says-why grep -q 'not a regular file' "$tmp/fifo.err"
timeout -s KILL 20 "$pbcheck" certify --quick --target reference --waivers "$tmp/fifo.pbs" --out "$tmp/fifo-w" \
    >"$tmp/fifo-w.out" 2>"$tmp/fifo-w.err"
check fifo-waivers-exit-2 [ $? -eq 2 ]
check fifo-waivers-says-why grep -q 'not a regular file' "$tmp/fifo-w.err"

# --out through a link to nothing, or a loop of links: what it is, not "File exists".
ln -s "$tmp/nowhere" "$tmp/dangling"
ln -s "$tmp/loop-b" "$tmp/loop-a"
ln -s "$tmp/loop-a" "$tmp/loop-b"
for link in dangling loop-a; do
    for out in "$tmp/$link" "$tmp/$link/sub"; do
        timeout -s KILL 60 "$pbcheck" certify --quick --target reference --out "$out" >"$tmp/$link.out" 2>"$tmp/$link.err"
        check "$link-${out##*/}-exit-2" [ $? -eq 2 ]
        check "$link-${out##*/}-one-line" [ "$(wc -l <"$tmp/$link.err")" -eq 1 ]
        check "$link-${out##*/}-not-file-exists" sh -c "! grep -q 'File exists' '$tmp/$link.err'"
    done
done
check dangling-says-dangling grep -q 'symbolic link to nothing' "$tmp/dangling.err"
check loop-says-loop grep -q 'symbolic link in a loop' "$tmp/loop-a.err"

# SIGHUP and SIGQUIT stop certify as SIGINT and SIGTERM do: 128 + the
# signal, and complete reports of the cases that ran.
for sig in HUP QUIT; do
    "$pbcheck" certify --target reference --quick --time 30 --out "$tmp/$sig" >"$tmp/$sig.log" 2>&1 &
    pid=$!
    sleep 3
    kill -"$sig" $pid
    wait $pid
    rc=$?
    want=129
    [ "$sig" = QUIT ] && want=131
    check "$sig-exit-$want" [ $rc -eq $want ]
    check "$sig-says-interrupted" grep -q "verdict: INTERRUPTED by SIG$sig" "$tmp/$sig.log"
    check "$sig-report-json" python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(not (d["interrupted"] is True and d["verdict"] == "incomplete" and len(d["results"]) > 0))' \
        "$tmp/$sig/latest/report.json"
    check "$sig-summary" grep -q 'interrupted' "$tmp/$sig/latest/summary.md"
done

# Full RELRO: every symbol bound at load, the GOT read-only after.
check relro-bind-now sh -c "readelf -dW '$pbcheck' | grep -Eq '\\(BIND_NOW\\)|\\(FLAGS_1\\).*NOW'"
check relro-segment sh -c "readelf -lW '$pbcheck' | grep -q GNU_RELRO"
finish
