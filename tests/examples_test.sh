#!/usr/bin/env bash
# The example third-party builders (targets/examples/), loaded as shared
# libraries: each passes every seed and tests/examples/*.pbs except the
# harness gaps listed in tests/examples/known-harness-gaps.txt (a listed
# case that passes is a failure: remove its line), and certify --quick
# finds no rule outside those gaps; each planted-bug library fails the
# same scenarios with its rule.
# Usage: examples_test.sh PBCHECK SOURCE_DIR LIBRARY_DIR
set -u
pbcheck=$1 src=$2 libdir=$3
gaps=$src/tests/examples/known-harness-gaps.txt
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passes=0 fails=0
check() { # check NAME CONDITION-COMMAND...
    local name=$1
    shift
    if "$@"; then passes=$((passes + 1)); else echo "FAIL $name"; fails=$((fails + 1)); fi
}
scenarios=("$src"/corpus/seeds/*.pbs "$src"/tests/examples/*.pbs)

for ex in example_gpu example_cpu example_worker; do
    lib=$libdir/lib$ex.so
    "$pbcheck" run "${scenarios[@]}" --target "$lib" >"$tmp/out" 2>&1
    grep '^FAIL ' "$tmp/out" | awk -v ex="$ex" '{ n = split($2, p, "/"); print ex, p[n], $3 }' | sort >"$tmp/failed"
    grep -v '^#' "$gaps" | awk -v ex="$ex" '$1 == ex' | sort >"$tmp/known"
    comm -23 "$tmp/failed" "$tmp/known" >"$tmp/new"
    comm -13 "$tmp/failed" "$tmp/known" >"$tmp/fixed"
    check "$ex-run-no-new-failures" [ ! -s "$tmp/new" ]
    check "$ex-run-gaps-still-open" [ ! -s "$tmp/fixed" ]
    sed 's/^/  new failure: /' "$tmp/new"
    sed 's/^/  gap now passes, remove from known-harness-gaps.txt: /' "$tmp/fixed"
    "$pbcheck" certify --quick --target "$lib" --out "$tmp/cert-$ex" >"$tmp/out" 2>&1
    awk '/^PB-[A-Z-]+ +[1-9]/ { print $1 }' "$tmp/out" | sort -u >"$tmp/rules"
    awk '{ print $3 }' "$tmp/known" | sort -u >"$tmp/gap-rules"
    check "$ex-certify-only-gap-rules" [ -z "$(comm -23 "$tmp/rules" "$tmp/gap-rules")" ]
    check "$ex-certify-judged" grep -q '^verdict: ' "$tmp/out"
    if [ ! -s "$tmp/known" ]; then
        check "$ex-certify-conformant" grep -q 'verdict: CONFORMANT' "$tmp/out"
    fi
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

echo "$passes passed, $fails failed"
[ "$fails" -eq 0 ]
