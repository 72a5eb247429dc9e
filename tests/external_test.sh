#!/usr/bin/env bash
# Builders loaded from shared libraries: every verb takes --target PATH;
# an ABI 1.0 table is accepted with defaults; another major version, a
# missing file or a library without pbc_target_get is one line and exit 2.
# A builder that hard-codes 4 KiB paging buffers and its segment ids
# certifies clean once it declares them, and without the declaration gets
# its own NT_ASSERT as a finding (a clear message), not a crash.
# Usage: external_test.sh PBCHECK SOURCE_DIR LIB_CURRENT LIB_OLD LIB_BAD LIB_DECLARED LIB_UNDECLARED
set -u
pbcheck=$1 src=$2 lib=$3 old=$4 bad=$5 declared=$6 undeclared=$7
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/check.sh"

"$pbcheck" run "$src"/corpus/seeds/*.pbs --target "$lib" >"$tmp/out" 2>&1
check run-exit-0 [ $? -eq 0 ]
check run-all-pass grep -Eq '^run: [0-9]+ passed, 0 failed, 0 skipped$' "$tmp/out"
"$pbcheck" certify --quick --target "$lib" --out "$tmp/cert" >"$tmp/out" 2>&1
check certify-exit-0 [ $? -eq 0 ]
check certify-conformant grep -q 'verdict: CONFORMANT' "$tmp/out"
"$pbcheck" disasm "$src/corpus/seeds/fill-basic.pbs" --target "$lib" >"$tmp/out" 2>&1
check disasm-exit-0 [ $? -eq 0 ]
check disasm-packets grep -qi 'fill' "$tmp/out"
"$pbcheck" run "$src"/corpus/seeds/*.pbs --target "$old" >"$tmp/out" 2>&1
check old-abi-accepted [ $? -eq 0 ]
"$pbcheck" run "$src/corpus/seeds/fill-basic.pbs" --target "$bad" >"$tmp/out" 2>"$tmp/err"
check bad-abi-exit-2 [ $? -eq 2 ]
check bad-abi-one-line [ "$(wc -l <"$tmp/err")" -eq 1 ]
check bad-abi-says-abi grep -q 'ABI' "$tmp/err"
"$pbcheck" run "$src/corpus/seeds/fill-basic.pbs" --target "$tmp/nope.so" >"$tmp/out" 2>"$tmp/err"
check missing-exit-2 [ $? -eq 2 ]
check missing-one-line [ "$(wc -l <"$tmp/err")" -eq 1 ]
cp /bin/true "$tmp/notabuilder.so" 2>/dev/null
printf 'not an ELF file\n' >"$tmp/junk.so"
"$pbcheck" run "$src/corpus/seeds/fill-basic.pbs" --target "$tmp/junk.so" >"$tmp/out" 2>"$tmp/err"
check junk-exit-2 [ $? -eq 2 ]
check junk-one-line [ "$(wc -l <"$tmp/err")" -eq 1 ]

"$pbcheck" certify --target "$declared" --no-random --out "$tmp/declared" >"$tmp/out" 2>&1
check declared-conformant grep -q 'verdict: CONFORMANT' "$tmp/out"
check declared-cases-ran grep -Eq '^certify .*: [0-9]{3,} cases' "$tmp/out"
check declared-none-failed grep -Eq ': [0-9]+ passed, 0 failed, 0 skipped, 0 harness bugs$' "$tmp/out"
"$pbcheck" run "$src"/corpus/seeds/*.pbs --target "$declared" >"$tmp/out" 2>&1
check declared-seeds-run-or-skip [ $? -ne 1 ]
# The random phase and binary inputs are made within the declared adapter:
# every case runs, none is skipped for not fitting it.
"$pbcheck" certify --quick --time 2 --seed 7 --target "$declared" --out "$tmp/declared-random" >"$tmp/out" 2>&1
check declared-random-conformant grep -q 'verdict: CONFORMANT' "$tmp/out"
check declared-random-none-skipped grep -Eq ': [0-9]+ passed, 0 failed, 0 skipped, 0 harness bugs$' "$tmp/out"
"$pbcheck" encode "$src"/corpus/seeds/*.pbs --out "$tmp/bin" >/dev/null 2>&1
"$pbcheck" replay "$tmp"/bin/*.bin --target "$declared" >"$tmp/out" 2>&1
check declared-binary-inputs-all-run grep -Eq '^replay: [0-9]+ passed, 0 failed, 0 skipped$' "$tmp/out"
"$pbcheck" run "$src"/corpus/seeds/*.pbs --target "$undeclared" >"$tmp/out" 2>&1
check undeclared-fails-1 [ $? -eq 1 ]
check undeclared-says-assert grep -q 'PB-ASSERT: .*NT_ASSERT(a->DmaBufferWriteOffset + a->DmaSize == FIXED_PAGING_BUFFER)' "$tmp/out"

finish
