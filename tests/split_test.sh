#!/usr/bin/env bash
# The judge across the DDI (harness/ddi/, PBCHECK_SPLIT=1): a library
# builder runs in a driver process of its own and the verdict is made in a
# process that runs none of its code.
#  - The split changes no verdict: the three examples (packets, CPU copies
#    at build time, a worker thread woken by SubmitCommand) and two planted
#    bugs give the same lines, digest for digest, split and in process,
#    the last writer's source line in each finding included.
#  - A wrong builder whose constructor patches pbcheck's verdict functions
#    (tests/attacks/oracle_patch.c) passes every case in process, and fails
#    as its bug deserves when split: the patch lands where nothing judges.
#  - One that points pbcheck's memcmp and bcmp at "equal"
#    (tests/attacks/got_redirect.c) hides failures in process (a release
#    build: half of them), none split.
#  - One that swaps its worker's answer pipe for a relay turning every
#    failing verdict into a pass (tests/external/attack_input.c, kind 9)
#    is certified CONFORMANT in process, and NOT CONFORMANT split, with
#    report.json and summary.md saying so: its driver process holds no
#    pipe of the judge's.
#  - One that rewrites a log line its driver process keeps as a notice
#    (sent without a reply with the next frame) into a register read
#    (tests/attacks/notice_forge.c) is example-gpu in process, and fails
#    every case split, refused as a notice that needs a reply; one that
#    scribbles the count of bytes read in the channel's ring from the judge
#    (the same file built with FORGE_CHANNEL) fails every case split,
#    refused as an impossible count, neither a hang nor a harness abort.
# Usage: split_test.sh PBCHECK SOURCE_DIR LIB_GPU LIB_GPU_BUG LIB_ORACLE_PATCH
#                      LIB_CPU LIB_WORKER LIB_WORKER_BUG LIB_GOT_REDIRECT
#                      LIB_FORGE LIB_NOTICE_FORGE LIB_CHANNEL_FORGE
set -u
# Runs without PBCHECK_SPLIT=1 below put the judge beside the builder.
export PBCHECK_SPLIT=0
pbcheck=$1 src=$2 gpu=$3 bug=$4 forged=$5 cpu=$6 worker=$7 worker_bug=$8 got=$9 relay=${10} notice=${11}
channel=${12}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/check.sh"
seeds=("$src"/corpus/seeds/*.pbs)

for lib in "$gpu" "$bug" "$cpu" "$worker" "$worker_bug"; do
    name=$(basename "$lib" .so)
    "$pbcheck" run "${seeds[@]}" --target "$lib" >"$tmp/in-$name" 2>&1
    in_rc=$?
    PBCHECK_SPLIT=1 "$pbcheck" run "${seeds[@]}" --target "$lib" >"$tmp/split-$name" 2>&1
    split_rc=$?
    check "$name-same-exit" [ "$in_rc" -eq "$split_rc" ]
    # Every verdict line and finding, the last writer's included (its
    # stores are watched in the driver process); not progress lines (speed).
    keep() { grep -Ev ' done, |still judging' "$1"; }
    check "$name-same-lines" cmp -s <(keep "$tmp/in-$name") <(keep "$tmp/split-$name")
done
check gpu-passes grep -Eq '^run: [1-9][0-9]* passed, 0 failed' "$tmp/in-$(basename "$gpu" .so)"
check bug-fails grep -Eq '^run: [0-9]+ passed, [1-9][0-9]* failed' "$tmp/in-$(basename "$bug" .so)"
# The worker bug's findings name their writer, split too.
check worker-bug-writer-split grep -Eq 'written by ExWkCopy at [^ ]*exwk_ddi\.c:[0-9]+ ' \
    "$tmp/split-$(basename "$worker_bug" .so)"

"$pbcheck" run "${seeds[@]}" --target "$forged" >"$tmp/forged-in" 2>&1
check forgery-works-in-process grep -Eq '^run: [1-9][0-9]* passed, 0 failed' "$tmp/forged-in"
PBCHECK_SPLIT=1 "$pbcheck" run "${seeds[@]}" --target "$forged" >"$tmp/forged-split" 2>&1
check forgery-fails-split [ $? -eq 1 ]
check forgery-split-same-as-bug cmp -s <(grep -E '^(pass|fail|skip) ' "$tmp/forged-split" | awk '{print $1, $2}') \
    <(grep -E '^(pass|fail|skip) ' "$tmp/split-$(basename "$bug" .so)" | awk '{print $1, $2}')
failures() { grep -c '^FAIL ' "$1"; }
"$pbcheck" run "${seeds[@]}" --target "$got" >"$tmp/got-in" 2>&1
PBCHECK_SPLIT=1 "$pbcheck" run "${seeds[@]}" --target "$got" >"$tmp/got-split" 2>&1
honest=$(failures "$tmp/in-$(basename "$worker_bug" .so)")
# In process the redirect hides failures of a release build; a sanitizer's
# own memcmp is not reached through the table, so there it hides none.
check got-redirect-hides-at-most-in-process [ "$(failures "$tmp/got-in")" -le "$honest" ]
check got-redirect-hides-nothing-split [ "$(failures "$tmp/got-split")" -eq "$honest" ]

# The relay forges the whole run in process (PBCHECK_SPLIT=0); split,
# which is certify's default (no PBCHECK_SPLIT at all), it forges nothing.
(cd "$tmp" && "$pbcheck" certify --target "$relay" --quick --no-random --out relay-in >relay-in.out 2>&1)
check relay-forges-in-process [ $? -eq 0 ]
check relay-conformant-in-process grep -q '^verdict: CONFORMANT' "$tmp/relay-in.out"
check relay-in-process-judge-beside grep -q 'judge: beside the builder, in its worker (PBCHECK_SPLIT=0: not a certificate)' "$tmp/relay-in/latest/report.json"
(cd "$tmp" && env -u PBCHECK_SPLIT "$pbcheck" certify --target "$relay" --quick --no-random --out relay-split >relay-split.out 2>&1)
check relay-fails-split [ $? -eq 1 ]
check relay-not-conformant-split grep -q '^verdict: NOT CONFORMANT' "$tmp/relay-split.out"
check relay-split-report-says-fail python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
fails = [r for r in d["results"] if r["verdict"] == "fail"]
sys.exit(0 if d["verdict"] == "fail" and fails and "judge: across the DDI" in d["provenance"]["isolation"] else 1)' \
    "$tmp/relay-split/latest/report.json"
check relay-split-summary-says-fail grep -q 'NOT CONFORMANT' "$tmp/relay-split/latest/summary.md"
"$pbcheck" run "${seeds[@]}" --target "$notice" >"$tmp/notice-in" 2>&1
check notice-forge-passes-in-process grep -Eq '^run: [1-9][0-9]* passed, 0 failed' "$tmp/notice-in"
PBCHECK_SPLIT=1 "$pbcheck" run "${seeds[@]}" --target "$notice" >"$tmp/notice-split" 2>&1
check notice-forge-fails-split grep -Eq '^run: 0 passed, [1-9][0-9]* failed' "$tmp/notice-split"
check notice-forge-refused grep -q 'sent as a notice a callback that needs a reply' "$tmp/notice-split"
"$pbcheck" run "${seeds[@]}" --target "$channel" >"$tmp/channel-in" 2>&1
check channel-forge-passes-in-process grep -Eq '^run: [1-9][0-9]* passed, 0 failed' "$tmp/channel-in"
PBCHECK_SPLIT=1 "$pbcheck" run "${seeds[@]}" --target "$channel" >"$tmp/channel-split" 2>&1
check channel-forge-fails-split [ $? -eq 1 ]
check channel-forge-refused grep -q 'wrote an impossible count into the channel' "$tmp/channel-split"
finish
