#!/usr/bin/env bash
# The example third-party builders (targets/examples/), loaded as shared
# libraries: each passes every seed and tests/examples/*.pbs (but for the
# 4 GiB aperture of map-beyond-64k-pages.pbs, which their GART does not
# have: they refuse that adapter, a skip) and certifies CONFORMANT, the
# GPU-copying one on the full suite, the two that copy with the CPU on
# --quick (the full suite's transfers beyond 256 MiB take them minutes
# under the sanitizers); each planted-bug library fails the same scenarios
# with its rule.
# Usage: examples_test.sh PBCHECK SOURCE_DIR LIBRARY_DIR
set -u
pbcheck=$1 src=$2 libdir=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/check.sh"
scenarios=("$src"/corpus/seeds/*.pbs "$src"/tests/examples/*.pbs)
# The examples are WDDM 1.x builders: the seeds with WDDM 2.x operations
# are skipped for them, and one other seed needs what they do not declare.
gpummu_seeds=$(grep -lE '^(va-map|va-zero|notify|notify-residency|init-context|update-context) |^signal-fence|^(transfer|fill) .* virtual|^map .* adl' \
    "$src"/corpus/seeds/*.pbs | wc -l)

for ex in example_gpu example_cpu example_worker; do
    lib=$libdir/lib$ex.so
    "$pbcheck" run "${scenarios[@]}" --target "$lib" >"$tmp/out" 2>&1
    check "$ex-run-exit-0" [ $? -eq 0 ]
    check "$ex-run-all-pass" grep -Eq "^run: [0-9]+ passed, 0 failed, $((gpummu_seeds + 1)) skipped\$" "$tmp/out"
    check "$ex-skips-only-the-4g-aperture" grep -Eq '^skip  .*/map-beyond-64k-pages.pbs ' "$tmp/out"
    grep '^FAIL ' -A2 "$tmp/out" | head -6
    quick=()
    [ "$ex" = example_gpu ] || quick=(--quick)
    "$pbcheck" certify --target "$lib" "${quick[@]}" --out "$tmp/cert-$ex" >"$tmp/out" 2>&1
    check "$ex-certify-conformant" grep -q 'verdict: CONFORMANT' "$tmp/out"
    grep -E '^certify ' "$tmp/out"
done

# planted bug library, expected rule
while read -r bug rule; do
    "$pbcheck" run "${scenarios[@]}" --target "$libdir/lib$bug.so" >"$tmp/out" 2>&1
    check "$bug-exit-1" [ $? -eq 1 ]
    check "$bug-caught-by-$rule" grep -Eq "^FAIL .* $rule\$" "$tmp/out"
done <<'BUGS'
example_gpu_bug_unmap_invalid PB-UNMAP-DUMMY
example_cpu_bug_ignore_idle PB-IDLE-HAZARD
example_worker_bug_transfer_offset PB-DIVERGE
example_worker_bug_small_page_table PB-UNMAP-DUMMY
example_worker_bug_small_page_table PB-DIVERGE
BUGS

finish
