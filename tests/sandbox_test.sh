#!/usr/bin/env bash
# The sandbox stops builders that attack pbcheck's machine rather than the
# case (tests/external/attack_sandbox.c, each with a wrong Fill): typing
# into the user's terminal (TIOCSTI, under a pty), rewriting report.json
# and summary.md after they are written, folders over the report names,
# replacing the pbcheck executable, and a setsid grandchild left behind
# when pbcheck is SIGKILLed or gets SIGHUP. For each: certify exits 1 with
# NOT CONFORMANT, the reports on disk say fail, nothing lands outside the
# worker's scratch folder (which is gone afterwards), no process is left.
# With namespaces, and with Landlock in their place (PBC_SANDBOX_NO_NS=1);
# as root, and as nobody when run as root.
# Usage: sandbox_test.sh PBCHECK KIND=LIB...
set -u
pbcheck=$1
shift
tmp=$(mktemp -d)
chmod 755 "$tmp"
trap 'pkill -KILL -x pbc-attack-lngr 2>/dev/null; rm -rf "$tmp"' EXIT
. "$(dirname "$0")/check.sh"
# The executable under attack is a copy, so a failure here breaks nothing.
mkdir -p "$tmp/bin"
cp "$pbcheck" "$tmp/bin/pbcheck"
chmod 755 "$tmp/bin" "$tmp/bin/pbcheck"
exe=$tmp/bin/pbcheck

as_user() { # as_user USER COMMAND...: root as itself, nobody through setpriv
    if [ "$1" = root ]; then shift; "$@"; else shift; setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; fi
}

# A certify run under a pseudo-terminal whose shell reads the terminal
# after pbcheck exits, as a user's would: what a builder typed into it
# would run then.
python=$(command -v /usr/bin/python3 || command -v python3) # one nobody can run too
pty_certify() { # pty_certify USER LIB OUT
    as_user "$1" "$python" - "$exe" "$2" "$3" "$fill_cases" <<'PY'
import os, pty, select, sys, time
exe, lib, out, cases = sys.argv[1:5]
pid, fd = pty.fork()
if pid == 0:
    os.execvp("sh", ["sh", "-c", '"$0" certify --quick --cases "$3" --target "$1" --case-timeout 10 --out "$2" '
                     '--run-id r >"$2.log" 2>&1; echo "rc=$?" >"$2.rc"; echo PBCHECK-DONE; exec sh',
                     exe, lib, out, cases])
seen, end = b"", time.time() + 900
def drain(until):
    global seen
    while time.time() < until:
        r, _, _ = select.select([fd], [], [], 0.2)
        if r:
            try:
                d = os.read(fd, 4096)
            except OSError:
                return False
            if not d:
                return False
            seen += d
            if b"PBCHECK-DONE" in seen and until == end:
                return True
    return True
drain(end)
time.sleep(1)
os.write(fd, b"exit\n")
drain(time.time() + 5)
os.waitpid(pid, 0)
PY
}

narrow=(--cases "$fill_cases") # check.sh

# pbcheck's processes (workers are its forks) and the attack's.
no_process_left() { ! pgrep -f "^$exe " >/dev/null && ! pgrep -x pbc-attack-lngr >/dev/null; }
empty() { [ -z "$(ls -A "$1")" ]; }

# Every check after a run: the verdict, the reports, nothing left.
after_run() { # after_run NAME OUT-RUN-DIR LOG RC
    local name=$1 run=$2 log=$3 rc=$4
    check "$name-exit-1" [ "$rc" -eq 1 ]
    check "$name-not-conformant" grep -q '^verdict: NOT CONFORMANT' "$log"
    check "$name-report-json-says-fail" python3 -c 'import json,sys; d=json.load(open(sys.argv[1]));
sys.exit(0 if d["verdict"] == "fail" and "forged" not in d else 1)' "$run/report.json"
    check "$name-summary-says-not-conformant" sh -c "grep -q 'NOT CONFORMANT' '$run/summary.md' && ! grep -q forged '$run/summary.md'"
    check "$name-junit-written" test -f "$run/junit.xml"
    check "$name-scratch-folders-removed" empty "$tmp/tmpdir"
    check "$name-nothing-outside" empty "$tmp/marks"
    check "$name-no-process-left" no_process_left
}

# Without the seccomp layer certify refuses to run (exit 2, saying what is
# missing) unless asked to run unconfined, and then the reports say so.
PBC_ISO_NO_SECCOMP=1 "$exe" certify --quick --target reference --out "$tmp/unconfined" >"$tmp/refused.log" 2>&1
check no-seccomp-refused [ $? -eq 2 ]
check no-seccomp-refusal-says-why grep -q 'the sandbox lacks seccomp' "$tmp/refused.log"
PBC_ISO_NO_SECCOMP=1 "$exe" certify --quick --target reference --allow-unconfined --out "$tmp/unconfined" \
    >"$tmp/unconfined.log" 2>&1
check allow-unconfined-runs [ $? -eq 0 ]
check allow-unconfined-says-so python3 -c 'import json,sys; d=json.load(open(sys.argv[1]));
sys.exit(0 if d["provenance"]["isolation"].startswith("unconfined (--allow-unconfined): ") else 1)' \
    "$tmp/unconfined/latest/report.json"
# A folder left under its making name (a pbcheck killed between mkdtemp
# and rename) is swept once it is stale; one being made now is not.
mkdir -p "$tmp/sweep/.pbcheck-making-old" "$tmp/sweep/.pbcheck-making-new"
touch -d '-2 hours' "$tmp/sweep/.pbcheck-making-old"
printf 'pbs 1\nalloc A size=4K at=1:0\nend\n' >"$tmp/sweep.pbs"
TMPDIR=$tmp/sweep "$exe" run "$tmp/sweep.pbs" --target reference >"$tmp/sweep.log" 2>&1
check making-folder-run-passes [ $? -eq 0 ] || cat "$tmp/sweep.log"
check stale-making-folder-swept test ! -e "$tmp/sweep/.pbcheck-making-old"
check young-making-folder-kept test -d "$tmp/sweep/.pbcheck-making-new"
check confined-provenance-names-layers sh -c "'$exe' certify --quick --target reference --out '$tmp/confined' >/dev/null 2>&1 &&
    grep -q '\"isolation\": \"sandbox: pdeath,' '$tmp/confined/latest/report.json'"

for user in root nobody; do
    if [ "$user" = nobody ]; then
        [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null || { echo "skipped: as nobody (not root)"; continue; }
        chmod 777 "$tmp"
        if ! as_user nobody test -x "$exe"; then echo "skipped: nobody cannot run $exe"; continue; fi
    fi
    for mode in ns landlock; do
        no_ns=0
        [ $mode = landlock ] && no_ns=1
        for pair in "$@"; do
            kind=${pair%%=*} lib=${pair#*=}
            name=$user-$mode-$kind
            if ! as_user "$user" test -r "$lib"; then echo "skipped: $name: $user cannot read $lib"; continue; fi
            out=$tmp/$name
            rm -rf "$tmp/tmpdir" "$tmp/marks"
            mkdir -p "$out" "$tmp/tmpdir" "$tmp/marks"
            chmod 777 "$out" "$tmp/tmpdir" "$tmp/marks"
            export PBC_SANDBOX_NO_NS=$no_ns TMPDIR=$tmp/tmpdir PBC_ATTACK_DIR=$tmp/marks PBC_ATTACK_RUN=$out/r
            cp "$pbcheck" "$exe.tmp" && mv -f "$exe.tmp" "$exe" # as it was, whatever a run before did
            # the user's own pbcheck, in a folder of the user's, as an installation in a home folder is
            [ "$user" = nobody ] && chown 65534:65534 "$tmp/bin" "$exe"
            case $kind in
            tiocsti)
                pty_certify "$user" "$lib" "$out"
                rc=$(sed -n 's/^rc=//p' "$out.rc" 2>/dev/null)
                after_run "$name" "$out/r" "$out.log" "${rc:-99}"
                check "$name-nothing-typed-ran" test ! -e "$tmp/marks/tiocsti-ran"
                ;;
            rewrite | folders | exe)
                as_user "$user" "$exe" certify --quick "${narrow[@]}" --target "$lib" --case-timeout 10 --out "$out" --run-id r \
                    >"$out.log" 2>&1
                rc=$?
                after_run "$name" "$out/r" "$out.log" "$rc"
                sleep 0.5 # a rewriter that outlived pbcheck would act now
                check "$name-reports-still-say-fail" python3 -c 'import json,sys; d=json.load(open(sys.argv[1]));
sys.exit(0 if d["verdict"] == "fail" else 1)' "$out/r/report.json"
                check "$name-executable-unchanged" cmp -s "$exe" "$pbcheck"
                check "$name-nothing-beside-executable" test ! -e "$exe.new"
                ;;
            linger)
                # Without a PID namespace a detached grandchild outlives a
                # SIGKILLed pbcheck (docs/architecture.md, "What remains").
                [ $mode = landlock ] && continue
                for sig in KILL HUP; do
                    rm -rf "$tmp/marks/linger-ran" "$tmp/tmpdir"/*
                    # setpriv execs pbcheck: $! is pbcheck itself
                    if [ "$user" = root ]; then
                        "$exe" certify --quick --target "$lib" --case-timeout 60 --out "$out-$sig" --run-id r \
                            >"$out-$sig.log" 2>&1 &
                    else
                        setpriv --reuid=65534 --regid=65534 --clear-groups "$exe" certify --quick --target "$lib" \
                            --case-timeout 60 --out "$out-$sig" --run-id r >"$out-$sig.log" 2>&1 &
                    fi
                    pid=$!
                    for _ in $(seq 600); do pgrep -x pbc-attack-lngr >/dev/null && break; sleep 0.1; done
                    check "$name-$sig-grandchild-started" pgrep -x pbc-attack-lngr >/dev/null
                    kill -$sig "$pid"
                    wait "$pid" 2>/dev/null
                    sleep 2
                    check "$name-$sig-no-process-left" no_process_left
                    sleep 2 # past the grandchild's 3 s
                    check "$name-$sig-delayed-action-never-happened" test ! -e "$tmp/marks/linger-ran"
                    check "$name-$sig-nothing-in-scratch-folders" test -z "$(find "$tmp/tmpdir" -name linger-ran)"
                    pkill -KILL -x pbc-attack-lngr 2>/dev/null
                    if [ $sig = KILL ]; then
                        # The SIGKILLed pbcheck's scratch folders stay until the
                        # next pbcheck of the user starts a worker, which
                        # removes every folder no live pbcheck holds.
                        check "$name-KILL-left-scratch" test -n "$(ls -d "$tmp/tmpdir"/pbcheck-worker-* 2>/dev/null)"
                        left=$(ls -d "$tmp/tmpdir"/pbcheck-worker-* 2>/dev/null)
                        printf 'pbs 1\nalloc A size=4K at=1:0\nend\n' >"$tmp/nothing.pbs"
                        chmod 644 "$tmp/nothing.pbs"
                        as_user "$user" "$exe" run "$tmp/nothing.pbs" --target "$lib" >"$out-sweep.log" 2>&1
                        check "$name-KILL-next-run-passes" [ $? -eq 0 ] || cat "$out-sweep.log"
                        for d in $left; do check "$name-KILL-scratch-swept" test ! -e "$d"; done
                    fi
                done
                ;;
            esac
            unset PBC_SANDBOX_NO_NS TMPDIR PBC_ATTACK_DIR PBC_ATTACK_RUN
        done
    done
done
finish
