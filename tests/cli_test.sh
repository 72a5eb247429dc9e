#!/usr/bin/env bash
# The pbcheck command line as a user meets it: exit codes, one-line errors,
# summaries. Usage: cli_test.sh PBCHECK SOURCE_DIR
set -u
pbcheck=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
passes=0
check() { # check NAME CONDITION-COMMAND...
    local name=$1
    shift
    if "$@"; then passes=$((passes + 1)); else echo "FAIL $name"; fails=$((fails + 1)); fi
}

"$pbcheck" run "$src"/corpus/seeds/*.pbs >"$tmp/out" 2>"$tmp/err"
check seeds-pass [ $? -eq 0 ]
check seeds-summary grep -Eq '^run: [0-9]+ passed, 0 failed, 0 skipped$' "$tmp/out"

printf 'pbs 1\nalloc A size=4K\nfrobnicate A\nend\n' >"$tmp/bad.pbs"
"$pbcheck" run "$tmp/bad.pbs" >"$tmp/out" 2>"$tmp/err"
check bad-file-exit-2 [ $? -eq 2 ]
check bad-file-one-line [ "$(wc -l <"$tmp/err")" -eq 1 ]
check bad-file-message grep -q "bad.pbs:3:1: unknown keyword 'frobnicate'" "$tmp/err"

# A bad file among good ones: the good ones still run, the exit says input error.
"$pbcheck" run "$src"/corpus/seeds/transfer-split3.pbs "$tmp/bad.pbs" >"$tmp/out" 2>"$tmp/err"
check mixed-exit-2 [ $? -eq 2 ]
check mixed-still-ran grep -q '^run: 1 passed' "$tmp/out"

"$pbcheck" run --target nosuch "$src"/corpus/seeds/transfer-split3.pbs >"$tmp/out" 2>"$tmp/err"
check unknown-target [ $? -eq 2 ]
"$pbcheck" frob >"$tmp/out" 2>"$tmp/err"
check unknown-verb [ $? -eq 2 ]
"$pbcheck" --help >"$tmp/out"
check help grep -q 'run SCENARIO' "$tmp/out"
"$pbcheck" run --help >"$tmp/out"
check run-help grep -q -- '--trace' "$tmp/out"
"$pbcheck" list targets >"$tmp/out"
check list-targets grep -q '^reference' "$tmp/out"

"$pbcheck" run "$src"/corpus/seeds/busy-retry-split-multibuffer.pbs --trace >"$tmp/out"
check trace-busy grep -q 'ALLOCATION_BUSY' "$tmp/out"
check trace-insufficient grep -q 'INSUFFICIENT_DMA_BUFFER' "$tmp/out"
check trace-submit grep -q 'submit: buffer' "$tmp/out"
check trace-fence grep -q 'fence .* completes' "$tmp/out"

"$pbcheck" disasm "$src"/corpus/seeds/map-access-unmap-dummy.pbs >"$tmp/out"
check disasm-gart grep -q 'gart' "$tmp/out"

echo "$passes passed, $fails failed"
[ "$fails" -eq 0 ]
