#!/usr/bin/env bash
# Every legal variant builder is certified CONFORMANT (CTest label
# "conformance"): the quick suite (every story, every operation at the
# address and size classes most likely to break) with 2 seconds of random
# scenarios (seed 1). The full suite for every variant under the
# sanitizers alone took most of CI's time; `pbcheck certify --target V`
# runs it. Two variants run at a time: this is the longest test.
# Usage: variants_test.sh PBCHECK [PBCHECK_PLAIN]
# Every variant is tried; the test fails after listing each one that failed.
# PBCHECK_PLAIN, the same pbcheck without the sanitizers (pbcheck_plain of
# a sanitizer build), certifies three variants of every four: this test is
# about verdicts. Every fourth runs under PBCHECK, and test_variants runs
# every variant over the seeds under the sanitizers.
set -uo pipefail
pbcheck=$1 plain=${2:-$1}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
variants=$("$pbcheck" list targets | awk '/\[legal variant\]$/ {print $1}')
[ "$(echo "$variants" | wc -w)" -ge 12 ] || { echo "FAIL: fewer than 12 variants listed" >&2; exit 1; }

# Random scenarios reach 256 MiB allocations: a legal variant that moves
# 256 bytes a call (variant-inline-data) takes over 10 s on one of them
# under ASan, more on a loaded machine, and a timeout would be a false
# verdict.
certify_one() {
    local v=$1 certifier=$2 out="$tmp/$1" rc=0
    "$certifier" certify --target "$v" --quick --time 2 --seed 1 --case-timeout 120 --out "$out" >"$out.log" 2>&1 || rc=$?
    if [ $rc -eq 0 ] && grep -q "CONFORMANT" "$out.log" && ! grep -q "NOT CONFORMANT" "$out.log"; then
        echo "ok    $v"
    else
        { echo "FAIL  $v: exit $rc"; grep -E "^ *PB-[A-Z-]+|verdict|FAIL" "$out.log" | head -8; } >&2
        touch "$tmp/$v.failed"
    fi
}

n=0
for v in $variants; do
    certifier=$plain
    [ $((n++ % 4)) -eq 0 ] && certifier=$pbcheck
    certify_one "$v" "$certifier" &
    while [ "$(jobs -rp | wc -l)" -ge 2 ]; do
        wait -n
    done
done
wait
failed=$(cd "$tmp" && ls -- *.failed 2>/dev/null | sed 's/\.failed$//' | tr '\n' ' ')
[ -z "$failed" ] || { echo "FAIL: $failed" >&2; exit 1; }
