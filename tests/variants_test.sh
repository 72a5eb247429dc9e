#!/usr/bin/env bash
# Every legal variant builder is certified CONFORMANT (CTest label
# "conformance"): the quick suite, then the full suite with 5 seconds of
# random scenarios (seed 1). Usage: variants_test.sh PBCHECK
# Every variant is tried; the test fails after listing each one that failed.
set -uo pipefail
pbcheck=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=()
variants=$("$pbcheck" list targets | awk '/\[legal variant\]$/ {print $1}')
[ "$(echo "$variants" | wc -w)" -ge 12 ] || { echo "FAIL: fewer than 12 variants listed" >&2; exit 1; }
for v in $variants; do
    for mode in quick random; do
        args=(--quick)
        # Random scenarios reach 256 MiB allocations: a legal variant that
        # moves 256 bytes a call (variant-inline-data) takes over 10 s on one
        # of them under ASan, more on a loaded machine, and a timeout would
        # be a false verdict.
        [ $mode = random ] && args=(--time 5 --seed 1 --case-timeout 120)
        out="$tmp/$v-$mode"
        rc=0
        "$pbcheck" certify --target "$v" "${args[@]}" --out "$out" >"$out.log" 2>&1 || rc=$?
        if [ $rc -eq 0 ] && grep -q "CONFORMANT" "$out.log" && ! grep -q "NOT CONFORMANT" "$out.log"; then
            echo "ok    $v ($mode)"
        else
            echo "FAIL  $v ($mode): exit $rc" >&2
            grep -E "^ *PB-[A-Z-]+|verdict|FAIL" "$out.log" | head -8 >&2
            failed+=("$v/$mode")
        fi
    done
done
[ ${#failed[@]} -eq 0 ] || { echo "FAIL: ${failed[*]}" >&2; exit 1; }
