#!/usr/bin/env bash
# Bad input, as a user meets it: every input that is wrong for the model is
# one line FILE:LINE:COL: why and exit 2 from run, replay and encode, never
# a skip or an out-of-memory abort; memory is bounded by the documented
# limit; a bad file never hides a failure; long paths keep their messages.
# Usage: input_test.sh PBCHECK SOURCE_DIR [FUZZ_BIN_DIR]
set -u
pbcheck=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$2
fuzz_bin=${3:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/check.sh"
one_line() { [ "$(wc -l <"$1")" -eq 1 ]; }
# A binary scenario: version 1, the default layout, then the hex bytes given.
binary() { # binary FILE HEX-BYTES...
    local f=$1
    shift
    printf '\001\000' >"$f"
    for b in "$@"; do printf "\\x$b" >>"$f"; done
}

# 1. A layout the model cannot build (segments over each other) is an
# input error at its line, not a skip; a segment anywhere else is taken.
printf 'pbs 1\n# two segments over each other\nsegment 1 memory base=0x80000000 size=64M\nsegment 2 aperture base=0x82000000 size=64M\nalloc A size=4K\nend\n' \
    >"$tmp/window.pbs"
want="$tmp/window.pbs:4:1: segments overlap"
printf 'pbs 1\nsegment 1 memory base=0x80000000 size=64M\nsegment 2 aperture base=0xC0000000 size=64M\nalloc A size=8K\nalloc B size=4K\ntransfer A to=1:0x1000\nmap B aperture=2:1\nend\n' \
    >"$tmp/in-old-window.pbs"
"$pbcheck" run "$tmp/in-old-window.pbs" >"$tmp/out" 2>"$tmp/err"
check segments-in-2g-16g-run [ $? -eq 0 ]
"$pbcheck" run "$tmp/window.pbs" >"$tmp/out" 2>"$tmp/err"
check window-run-exit-2 [ $? -eq 2 ]
check window-run-line grep -qxF "$want" "$tmp/err"
check window-run-one-line one_line "$tmp/err"
"$pbcheck" replay "$tmp/window.pbs" >"$tmp/out" 2>"$tmp/err"
check window-replay-exit-2 [ $? -eq 2 ]
check window-replay-line grep -qxF "$want" "$tmp/err"
"$pbcheck" encode "$tmp/window.pbs" --out "$tmp/enc-window" >"$tmp/out" 2>"$tmp/err"
check window-encode-exit-2 [ $? -eq 2 ]
check window-encode-line grep -qxF "$want" "$tmp/err"
check window-encode-wrote-nothing [ ! -e "$tmp/enc-window/window.bin" ]
printf 'pbs 1\nsegment 1 memory base=0 size=64M\nsegment 2 aperture base=0x3000000 size=64M\nend\n' >"$tmp/overlap.pbs"
"$pbcheck" run "$tmp/overlap.pbs" >"$tmp/out" 2>"$tmp/err"
check overlap-exit-2 [ $? -eq 2 ]
check overlap-line grep -qxF "$tmp/overlap.pbs:3:1: segments overlap" "$tmp/err"

# 2. A text scenario with a non-ASCII byte is text with a bad byte, whatever its name.
printf 'pbs 1\n# caf\303\251\nalloc A size=4K\nend\n' >"$tmp/accent.pbs"
want=": unexpected byte 0xc3 (only printable ASCII, tab and CR are allowed)"
"$pbcheck" replay "$tmp/accent.pbs" >"$tmp/out" 2>"$tmp/err"
check accent-replay-exit-2 [ $? -eq 2 ]
check accent-replay-line grep -qxF "$tmp/accent.pbs:2:6$want" "$tmp/err"
check accent-replay-ran-nothing grep -q '^replay: 0 passed, 0 failed, 0 skipped' "$tmp/out"
cp "$tmp/accent.pbs" "$tmp/accent-no-extension"
"$pbcheck" replay "$tmp/accent-no-extension" >"$tmp/out" 2>"$tmp/err"
check accent-sniffed-exit-2 [ $? -eq 2 ]
check accent-sniffed-line grep -qxF "$tmp/accent-no-extension:2:6$want" "$tmp/err"
"$pbcheck" run "$tmp/accent.pbs" >"$tmp/out" 2>"$tmp/err"
check accent-run-exit-2 [ $? -eq 2 ]
# A .bin input is binary even when its bytes spell a text header.
printf 'pbs 1\nend\n' >"$tmp/spells-text.bin"
"$pbcheck" replay "$tmp/spells-text.bin" >"$tmp/out" 2>"$tmp/err"
check bin-name-is-binary [ $? -eq 0 ]

# 3. Memory: at most 16 GiB of modeled memory written per scenario, 8 GiB
# less 1 MiB of it system memory (docs/scenario-format.md).
segments() { printf 'pbs 1\nsegment 1 memory base=0x1000000000 size=8G\nsegment 2 memory base=0x2000000000 size=8G\n'; }
{ segments; echo 'alloc A0 size=8G at=1:0'; echo 'alloc A1 size=4G'; echo 'transfer A0 to=2:0'; echo end; } >"$tmp/over.pbs"
want="$tmp/over.pbs:6:1: over the memory limit: by operation 1 (transfer) the scenario writes 20480 MiB of"
want="$want modeled memory, more than the 16384 MiB a scenario may write (docs/scenario-format.md, \"Limits\")"
for verb in run replay; do
    "$pbcheck" "$verb" "$tmp/over.pbs" >"$tmp/out" 2>"$tmp/err"
    check "over-limit-$verb-exit-2" [ $? -eq 2 ]
    check "over-limit-$verb-line" grep -qxF "$want" "$tmp/err"
done
"$pbcheck" encode "$tmp/over.pbs" --out "$tmp/enc-over" >"$tmp/out" 2>"$tmp/err"
check over-limit-encode-exit-2 [ $? -eq 2 ]
check over-limit-encode-line grep -qxF "$want" "$tmp/err"
# Exactly at the limit (two fills of 8 GiB): it runs, in bounded memory.
{
    segments
    echo 'alloc A size=8G at=none'
    echo 'alloc B size=8G at=none'
    echo 'fill A to=1:0 pattern=0x5a5a5a5a'
    echo 'fill B to=2:0 pattern=0x5a5a5a5a'
    echo end
} >"$tmp/at-limit.pbs"
# (About 20 s and 3 GB under ASan+UBSan: no case timeout on a loaded machine.)
"$pbcheck" run --case-timeout 0 "$tmp/at-limit.pbs" >"$tmp/out" 2>"$tmp/err"
check at-limit-runs [ $? -eq 0 ]
check at-limit-passes grep -q '^run: 1 passed, 0 failed, 0 skipped$' "$tmp/out"
# A 2 KB binary input: one 128 MiB allocation moved 200 times to a segment
# and back, each move to system memory taking fresh pages.
pairs=()
for i in $(seq 1 200); do pairs+=(01 00 00 01 01 00 01 00 00 00); done
binary "$tmp/moves.bin" 00 00 ff ff ff 0f 01 00 00 00 "${pairs[@]}"
"$pbcheck" replay "$tmp/moves.bin" >"$tmp/out" 2>"$tmp/err"
check binary-over-limit-exit-2 [ $? -eq 2 ]
check binary-over-limit-line grep -qxF "$tmp/moves.bin: binary scenario over the memory limit: by operation 126 (transfer) the scenario takes 8192 MiB of system memory, more than the 8191 MiB the GPU model has (docs/scenario-format.md, \"Limits\")" "$tmp/err"
# The fuzz target applies the same limit: it does not run the input (far
# below its memory limit) instead of running out of memory.
if [ -n "$fuzz_bin" ] && [ -x "$fuzz_bin/fuzz_diff_reference" ]; then
    "$fuzz_bin/fuzz_diff_reference" -rss_limit_mb=512 "$tmp/moves.bin" >"$tmp/fuzz.log" 2>&1
    check fuzz-target-skips-over-limit [ $? -eq 0 ]
else
    echo "note: no fuzz_diff_reference in '$fuzz_bin': the fuzz target's limit is not checked"
fi

# 4. Two inputs with one name: encode writes nothing and names both.
mkdir -p "$tmp/a" "$tmp/b" "$tmp/enc-same"
printf 'pbs 1\nalloc A size=4K\nend\n' >"$tmp/a/same.pbs"
printf 'pbs 1\nalloc B size=8K\nend\n' >"$tmp/b/same.pbs"
printf 'pbs 1\nend\n' >"$tmp/a/other.pbs"
echo sentinel >"$tmp/enc-same/same.bin"
"$pbcheck" encode "$tmp/a/other.pbs" "$tmp/a/same.pbs" "$tmp/b/same.pbs" --out "$tmp/enc-same" >"$tmp/out" 2>"$tmp/err"
check same-name-exit-2 [ $? -eq 2 ]
check same-name-line grep -qxF "pbcheck: encode: $tmp/a/same.pbs and $tmp/b/same.pbs would both be written as $tmp/enc-same/same.bin; nothing was written (rename one, or encode them into different folders)" "$tmp/err"
check same-name-kept [ "$(cat "$tmp/enc-same/same.bin")" = sentinel ]
check same-name-nothing-written [ ! -e "$tmp/enc-same/other.bin" ]

# 5. A failure outranks an unreadable input: exit 1, the bad file still reported.
seed="$src/corpus/seeds/transfer-above-4g.pbs"
printf 'pbs 1\nfrobnicate\nend\n' >"$tmp/bad.pbs"
"$pbcheck" run "$tmp/bad.pbs" "$seed" --target mutant-trunc32 >"$tmp/out" 2>"$tmp/err"
check fail-and-bad-run-exit-1 [ $? -eq 1 ]
check fail-and-bad-run-error grep -qxF "$tmp/bad.pbs:2:1: unknown keyword 'frobnicate'" "$tmp/err"
check fail-and-bad-run-summary grep -qxF 'run: 0 passed, 1 failed, 0 skipped (and 1 input not read: see above)' "$tmp/out"
"$pbcheck" encode "$seed" --out "$tmp/enc-seed" >"$tmp/out" 2>&1
"$pbcheck" replay --target mutant-trunc32 "$tmp/enc-seed/transfer-above-4g.bin" "$tmp/missing.bin" >"$tmp/out" 2>"$tmp/err"
check fail-and-bad-replay-exit-1 [ $? -eq 1 ]
check fail-and-bad-replay-error grep -q "^pbcheck: cannot open $tmp/missing.bin: No such file or directory$" "$tmp/err"
"$pbcheck" run "$tmp/bad.pbs" "$seed" >"$tmp/out" 2>"$tmp/err"
check pass-and-bad-exit-2 [ $? -eq 2 ]
for verb in run replay; do
    "$pbcheck" "$verb" --help >"$tmp/out"
    check "$verb-help-precedence" grep -q 'exit: 1 a failure (a finding or a harness bug), even when another input' "$tmp/out"
done

# 6. Long paths: ~1000 characters of nested folders.
long=$tmp
while [ ${#long} -lt 1000 ]; do long=$long/0123456789012345678901234567890123456789; done
mkdir -p "$long"
cp "$tmp/bad.pbs" "$long/bad.pbs"
"$pbcheck" run "$long/bad.pbs" >"$tmp/out" 2>"$tmp/err"
check long-run-exit-2 [ $? -eq 2 ]
check long-run-whole-line grep -qxF "$long/bad.pbs:2:1: unknown keyword 'frobnicate'" "$tmp/err"
"$pbcheck" replay "$long/missing.bin" >"$tmp/out" 2>"$tmp/err"
check long-replay-whole-line grep -qxF "pbcheck: cannot open $long/missing.bin: No such file or directory" "$tmp/err"
"$pbcheck" run "$seed" --target "$long/missing.so" >"$tmp/out" 2>"$tmp/err"
check long-target-exit-2 [ $? -eq 2 ]
check long-target-reason grep -q "missing.so: cannot open shared object file: No such file or directory$" "$tmp/err"
"$pbcheck" encode "$src"/corpus/seeds/*.pbs --out "$long/enc" >"$tmp/out" 2>"$tmp/err"
check long-encode-exit-0 [ $? -eq 0 ]
check long-encode-all [ "$(ls "$long/enc" | wc -l)" -eq "$(ls "$src"/corpus/seeds/*.pbs | wc -l)" ]
"$pbcheck" fuzz --target reference --prepare --out "$long/fz" >"$tmp/out" 2>"$tmp/err"
check long-fuzz-prepare [ $? -eq 0 ] && check long-fuzz-corpus [ "$(ls "$long/fz/corpus" | wc -l)" -gt 20 ]
"$pbcheck" certify --target mutant-trunc32 --quick --out "$long/cert" >"$tmp/out" 2>"$tmp/err"
check long-certify-exit-1 [ $? -eq 1 ]
check long-certify-reproducers [ "$(find "$long/cert" -name '*.pbs' | wc -l)" -gt 0 ]
check long-certify-no-error [ -z "$(grep -Ev '^certify( --time)?: [0-9/]* done, ' "$tmp/err")" ]
touch "$long/a-file"
"$pbcheck" certify --target reference --quick --out "$long/a-file/reports" >"$tmp/out" 2>"$tmp/err"
check long-certify-bad-out-exit-2 [ $? -eq 2 ]
check long-certify-bad-out-reason grep -q "^pbcheck: certify: cannot [a-z]* $long/a-file/.*: Not a directory$" "$tmp/err"
# Past what the system takes: one clear line, exit 2, nothing cut short.
huge=$tmp/$(printf 'd%.0s' $(seq 1 4080))
"$pbcheck" fuzz --target reference --prepare --out "$huge" >"$tmp/out" 2>"$tmp/err"
check huge-fuzz-exit-2 [ $? -eq 2 ]
check huge-fuzz-one-line one_line "$tmp/err"
check huge-fuzz-says grep -q "^pbcheck: fuzz: --out is [0-9]* bytes long; paths made under it would pass the system's limit of 4096 bytes: give one of at most [0-9]* bytes$" "$tmp/err"

finish
