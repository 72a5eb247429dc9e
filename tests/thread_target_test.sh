#!/usr/bin/env bash
# A builder that starts a system thread with its adapter (as a Windows 10
# driver's StartDevice does) runs under pbcheck: one that stops and waits
# for it passes every seed; one that leaves it running gets a PB-KERNEL
# finding naming the thread, and the runs still end (the thread is ended).
# Usage: thread_target_test.sh PBCHECK SOURCE_DIR LIB_STOPPED LIB_LEFT_RUNNING
set -u
pbcheck=$1 src=$2 stopped=$3 left=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/check.sh"

"$pbcheck" run "$src"/corpus/seeds/fill-basic.pbs "$src"/corpus/seeds/everything.pbs --target "$stopped" \
    >"$tmp/stopped" 2>&1
check stopped-exit-0 [ $? -eq 0 ] || cat "$tmp/stopped"
check stopped-all-pass grep -Eq '^run: [1-9][0-9]* passed, 0 failed' "$tmp/stopped"
timeout 120 "$pbcheck" run "$src"/corpus/seeds/fill-basic.pbs --target "$left" >"$tmp/left" 2>&1
check left-running-fails [ $? -eq 1 ] || cat "$tmp/left"
check left-running-is-kernel-finding grep -q 'PB-KERNEL' "$tmp/left"
check left-running-names-thread grep -q 'system thread 1 of 1 (PsCreateSystemThread) was still running' "$tmp/left"
finish
