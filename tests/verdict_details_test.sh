#!/usr/bin/env bash
# Verdict details a vendor tripped on:
# - PB-UNMAP-DUMMY names "the right page ... with its valid bit clear" when
#   an unmapped entry holds the dummy page without its valid bit, whether
#   the GPU wrote the entry (example_gpu) or the driver's gart_view reports
#   it (example_worker);
# - with a declared paging-buffer size (example_worker: 4 KiB) certify's
#   DMA-size classes are one scenario: no two cases differ only by it;
# - a worker's divergence is blamed on the paging operation its CPU work
#   carried out, not on the later operation whose SubmitCommand queued it
#   (dma-large-buffers.pbs: operation 3 transfers, operation 4 flushes).
# (min_dma_size 0 is test_variants' min_dma_size_zero_is_accepted.)
# Usage: verdict_details_test.sh PBCHECK SOURCE_DIR EXAMPLES_LIBDIR
set -u
pbcheck=$1 src=$2 libdir=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/check.sh"

for style in gpu worker; do
    "$pbcheck" run "$src/corpus/seeds/everything.pbs" --target "$libdir/libexample_${style}_bug_unmap_invalid.so" \
        >"$tmp/out" 2>&1
    check "unmap-invalid-$style-fails" grep -q '^FAIL .* PB-UNMAP-DUMMY$' "$tmp/out"
    check "unmap-invalid-$style-right-page" grep -Eq \
        '^  PB-UNMAP-DUMMY: .* holds the right page, the dummy page 0x[0-9a-f]+, with its valid bit clear' "$tmp/out" ||
        grep 'PB-UNMAP-DUMMY:' "$tmp/out"
done

"$pbcheck" certify --target "$libdir/libexample_worker.so" --quick --out "$tmp/cert" --run-id r >"$tmp/out" 2>&1
check declared-size-conformant grep -q 'verdict: CONFORMANT' "$tmp/out"
check declared-size-one-case-per-dma-class python3 - "$tmp/cert/r/report.json" <<'PY'
import collections, json, re, sys
names = [c["name"] for c in json.load(open(sys.argv[1]))["results"]]
same = collections.Counter(re.sub(r"/dma-[^/]+", "", n) for n in names if "/dma-" in n)
twice = [n for n, k in same.items() if k > 1]
sys.exit("%d cases differ only by their DMA size class, e.g. %s" % (len(twice), twice[:3]) if twice else 0)
PY

"$pbcheck" run "$src/corpus/seeds/dma-large-buffers.pbs" --target "$libdir/libexample_worker_bug_transfer_offset.so" \
    >"$tmp/out" 2>&1
check worker-diverges grep -q '^FAIL .* PB-DIVERGE$' "$tmp/out"
check worker-blamed-on-its-operation grep -q \
    "^  target last write: the builder's CPU access (CPU work queued by SubmitCommand, .*operation 3 'transfer')" \
    "$tmp/out" || grep 'last write' "$tmp/out"

finish
