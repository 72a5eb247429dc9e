#!/usr/bin/env bash
# The example third-party builders (targets/examples/), loaded as shared
# libraries: each passes every seed and tests/examples/*.pbs it supports
# (not the 4 GiB aperture of map-beyond-64k-pages.pbs, which their GART
# does not have: they refuse that adapter, a skip) and certifies CONFORMANT, the
# GPU-copying one on the full suite, example-cpu on --quick (the full
# suite's transfers beyond 256 MiB take the CPU copiers minutes under the
# sanitizers), example-worker in test_verdict_details; each planted-bug library
# fails the same scenarios with its rule.
# Usage: examples_test.sh PBCHECK SOURCE_DIR LIBRARY_DIR
set -u
pbcheck=$1 src=$2 libdir=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/check.sh"
scenarios=("$src"/corpus/seeds/*.pbs "$src"/tests/examples/*.pbs)
# ExGpu is a WDDM 1.x builder: the seeds with WDDM 2.x operations are
# skipped for it. ExCpu and ExWorker do the GPU-virtual operations too,
# all but the context ones (InitContextResource, UpdateContextAllocation):
# only the seeds with those are skipped for them. One other seed needs
# what none of them declares (the 4 GiB aperture).
gpummu_seeds=$(grep -lE '^(va-map|va-zero|notify|notify-residency|init-context|update-context) |^signal-fence|^(transfer|fill) .* virtual|^map .* adl' \
    "$src"/corpus/seeds/*.pbs | wc -l)
context_seeds=$(grep -lE '^(init-context|update-context) ' "$src"/corpus/seeds/*.pbs | wc -l)

for ex in example_gpu example_cpu example_worker; do
    lib=$libdir/lib$ex.so
    "$pbcheck" run "${scenarios[@]}" --target "$lib" >"$tmp/out" 2>&1
    check "$ex-run-exit-0" [ $? -eq 0 ]
    skipped=$((context_seeds + 1))
    [ "$ex" = example_gpu ] && skipped=$((gpummu_seeds + 1))
    check "$ex-run-all-pass" grep -Eq "^run: [0-9]+ passed, 0 failed, $skipped skipped\$" "$tmp/out"
    check "$ex-skips-only-the-4g-aperture" grep -Eq '^skip  .*/map-beyond-64k-pages.pbs ' "$tmp/out"
    grep '^FAIL ' -A2 "$tmp/out" | head -6
    # example-worker certifies --quick in test_verdict_details (under
    # ASan) and through the installed package (test_package's
    # certify_example_worker): a minute under ASan, not a third time.
    [ "$ex" = example_worker ] && continue
    quick=(--no-random) # the suite; plain certify's random phase is the reference's in test_certify
    [ "$ex" = example_gpu ] || quick=(--quick)
    # example-gpu's whole suite is judged beside the builder: its cases of
    # 131,072 calls cross to the driver process 4 times a call, which
    # under ASan outlasts their time (docs/benchmarks.md, (s));
    # test_split compares split and in process case by case on --quick.
    split=()
    [ "$ex" = example_gpu ] && split=(env PBCHECK_SPLIT=0)
    "${split[@]}" "$pbcheck" certify --target "$lib" "${quick[@]}" --out "$tmp/cert-$ex" >"$tmp/out" 2>&1
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
example_cpu_bug_stale_table_view PB-PTE
example_worker_bug_transfer_offset PB-DIVERGE
example_worker_bug_small_page_table PB-UNMAP-DUMMY
example_worker_bug_small_page_table PB-DIVERGE
example_worker_bug_reused_record PB-PTE
BUGS

# The GPU-virtual planted bugs fail certify's deterministic suite (--quick)
# with their rule too: in the groups of it that reach them (--cases; a
# glob that no longer matches a case of the suite is an error, exit 2).
while read -r bug groups; do
    "$pbcheck" certify --target "$libdir/lib$bug.so" --quick --cases "$groups" --out "$tmp/cert-$bug" >"$tmp/out" 2>&1
    check "$bug-certify-fails" [ $? -eq 1 ]
    check "$bug-certify-PB-PTE" awk '$1 == "PB-PTE" && $2 > 0 {found=1} END {exit !found}' "$tmp/out"
done <<'BUGS'
example_cpu_bug_stale_table_view story/*
example_worker_bug_reused_record va-map/*,va-zero-then-map/*
BUGS

finish
