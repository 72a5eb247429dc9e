#!/usr/bin/env bash
# The pbcheck command line as a user meets it: exit codes, one-line errors,
# summaries. Usage: cli_test.sh PBCHECK SOURCE_DIR
set -u
pbcheck=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") # absolute: some checks cd
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/check.sh"

"$pbcheck" run "$src"/corpus/seeds/*.pbs >"$tmp/out" 2>"$tmp/err"
check seeds-pass [ $? -eq 0 ]
check seeds-summary grep -Eq '^run: [0-9]+ passed, 0 failed, 0 skipped$' "$tmp/out"
# The README's quick start quotes this line: it stays the one printed.
check readme-seeds-line grep -qF "(\`$(tail -n 1 "$tmp/out")\`)" "$src/README.md"

# One bug prints the same finding text in every process (no host addresses).
"$pbcheck" run "$src"/corpus/seeds/*.pbs --target mutant-restart >"$tmp/first" 2>&1
"$pbcheck" run "$src"/corpus/seeds/*.pbs --target mutant-restart >"$tmp/second" 2>&1
check findings-stable cmp -s "$tmp/first" "$tmp/second"
check findings-name-mdls grep -q 'mdl:[A-Za-z]' "$tmp/first"
# The builder's DbgPrint output comes with its failure, apart from the finding.
"$pbcheck" run "$src/corpus/seeds/fill-basic.pbs" --target mutant-pool-leak >"$tmp/out" 2>&1
check dbgprint-shown grep -q "^mutant-pool-leak: tracking record for a" "$tmp/out"
check dbgprint-labelled grep -q "the builder's DbgPrint output" "$tmp/out"
"$pbcheck" run "$src/corpus/seeds/fill-basic.pbs" --target mutant-pool-leak --trace >"$tmp/out" 2>&1
check dbgprint-traced grep -q "target DbgPrint: mutant-pool-leak" "$tmp/out"
"$pbcheck" run "$src"/corpus/seeds/*.pbs --target mutant-busy-fill >"$tmp/out" 2>&1
check busy-fill-exit-1 [ $? -eq 1 ]
check busy-fill-status grep -q 'PB-STATUS' "$tmp/out"

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
# Paging buffers in a segment are read through the pool's alias (S40).
"$pbcheck" disasm "$src"/corpus/seeds/paging-buffers-in-segment.pbs >"$tmp/out"
check disasm-buffers-in-segment-exit-0 [ $? -eq 0 ]
check disasm-buffers-in-segment grep -q 'copy' "$tmp/out"

# encode and replay: text seeds become binary inputs that judge the same.
"$pbcheck" encode "$src"/corpus/seeds/*.pbs --out "$tmp/bin" >"$tmp/out"
check encode-exit [ $? -eq 0 ]
check encode-count [ "$(ls "$tmp/bin" | wc -l)" -eq "$(ls "$src"/corpus/seeds/*.pbs | wc -l)" ]
"$pbcheck" replay "$tmp"/bin/*.bin >"$tmp/out"
check replay-seeds-pass grep -Eq '^replay: [0-9]+ passed, 0 failed, 0 skipped$' "$tmp/out"
"$pbcheck" run "$src"/corpus/seeds/everything.pbs >"$tmp/text-run"
"$pbcheck" replay "$tmp/bin/everything.bin" >"$tmp/bin-run"
check replay-same-digest [ "$(awk '/^pass/{print $4}' "$tmp/text-run")" = "$(awk '/^pass/{print $4}' "$tmp/bin-run")" ]
"$pbcheck" replay --print "$tmp/bin/everything.bin" >"$tmp/out"
check replay-print grep -q '^special-lock-transfer C to=1:0x20000$' "$tmp/out"
"$pbcheck" replay --target mutant-trunc32 "$tmp/bin/transfer-above-4g.bin" >"$tmp/out"
check replay-finds-exit-1 [ $? -eq 1 ]
# A printed command runs as printed: by the binary's real path unless
# PATH finds this very pbcheck (another pbcheck first on PATH, or none).
self=$(realpath "$pbcheck")
check replay-line-real-path grep -q "replay: $self replay .*transfer-above-4g.bin --target mutant-trunc32" "$tmp/out"
mkdir -p "$tmp/selfbin" "$tmp/otherbin"
ln -sf "$self" "$tmp/selfbin/pbcheck"
printf '#!/bin/sh\nexit 0\n' >"$tmp/otherbin/pbcheck" && chmod +x "$tmp/otherbin/pbcheck"
PATH="$tmp/selfbin:$PATH" "$pbcheck" replay --target mutant-trunc32 "$tmp/bin/transfer-above-4g.bin" >"$tmp/out"
check replay-line-on-path grep -q 'replay: pbcheck replay .*transfer-above-4g.bin --target mutant-trunc32' "$tmp/out"
PATH="$tmp/otherbin:$tmp/selfbin:$PATH" "$pbcheck" replay --target mutant-trunc32 "$tmp/bin/transfer-above-4g.bin" >"$tmp/out"
check replay-line-other-on-path grep -q "replay: $self replay " "$tmp/out"
line=$(sed -n 's/^ *replay: //p' "$tmp/out" | head -1)
bash -c "$line" >/dev/null 2>&1
check replay-line-runs [ $? -eq 1 ]
head -c 300 /dev/urandom >"$tmp/random.bin"
"$pbcheck" replay "$tmp/random.bin" >"$tmp/out" 2>"$tmp/err"
check replay-any-bytes [ $? -eq 0 ]
"$pbcheck" replay "$tmp/bad.pbs" >"$tmp/out" 2>"$tmp/err"
check replay-bad-text-exit-2 [ $? -eq 2 ]
check replay-bad-text-line grep -q "bad.pbs:3:1: unknown keyword" "$tmp/err"
"$pbcheck" encode "$tmp/bad.pbs" --out "$tmp/bin2" >"$tmp/out" 2>"$tmp/err"
check encode-bad-exit-2 [ $? -eq 2 ]

# fuzz: usage errors are one line and exit 2; --dry-run shows the engine command.
"$pbcheck" fuzz >"$tmp/out" 2>"$tmp/err"
check fuzz-no-target [ $? -eq 2 ] && check fuzz-no-target-line [ "$(wc -l <"$tmp/err")" -eq 1 ]
"$pbcheck" fuzz --target nosuch >"$tmp/out" 2>"$tmp/err"
check fuzz-unknown-target [ $? -eq 2 ]
"$pbcheck" fuzz --target reference --engine honggfuzz >"$tmp/out" 2>"$tmp/err"
check fuzz-unknown-engine [ $? -eq 2 ]
"$pbcheck" fuzz --target reference --bin-dir "$tmp/nowhere" --out "$tmp/fz" >"$tmp/out" 2>"$tmp/err"
check fuzz-no-binary [ $? -eq 2 ] && check fuzz-no-binary-says grep -q 'cmake --preset fuzz' "$tmp/err"
mkdir -p "$tmp/fakebin" && printf '#!/bin/sh\nexit 0\n' >"$tmp/fakebin/fuzz_diff_mutant_trunc32"
chmod +x "$tmp/fakebin/fuzz_diff_mutant_trunc32"
printf '[libfuzzer]\nmax_len = 4096\n' >"$tmp/fakebin/fuzz_diff_mutant_trunc32.options"
"$pbcheck" fuzz --target mutant-trunc32 --bin-dir "$tmp/fakebin" --out "$tmp/fz" --time 5 --jobs 2 --dry-run >"$tmp/out"
check fuzz-dry-run-flags grep -q -- "-max_len=4096 -dict=$tmp/fakebin/fuzz_diff_mutant_trunc32.dict -artifact_prefix=$tmp/fz/artifacts/ .*-max_total_time=5 -fork=2 .*$tmp/fz/corpus" "$tmp/out"
check fuzz-seeded [ "$(ls "$tmp/fz/corpus" | wc -l)" -gt 20 ]
"$pbcheck" fuzz --target mutant-trunc32 --engine afl --bin-dir "$tmp/fakebin" --out "$tmp/fz" --jobs 2 --dry-run >"$tmp/out"
check fuzz-afl-main grep -q -- "afl-fuzz -i $tmp/fz/corpus -o $tmp/fz/afl -x .* -M main -- " "$tmp/out"
check fuzz-afl-secondary grep -q -- "-S secondary1 -- " "$tmp/out"
"$pbcheck" fuzz --target parse --prepare --out "$tmp/fp" >"$tmp/out"
check fuzz-parse-seeds-are-text grep -q '^pbs 1' "$tmp/fp/corpus/everything.pbs"
"$pbcheck" bench --help >"$tmp/out"
check bench-help grep -q 'time libFuzzer needs' "$tmp/out"
"$pbcheck" bench --time 0 >"$tmp/out" 2>"$tmp/err"
check bench-bad-time [ $? -eq 2 ]

# The option toolkit, the same for every verb.
seed="$src/corpus/seeds/transfer-above-4g.pbs"
"$pbcheck" run "$seed" --target mutant-trunc32 >"$tmp/out" 2>&1
check opt-space-value [ $? -eq 1 ]
"$pbcheck" run --target=mutant-trunc32 "$seed" >"$tmp/out" 2>&1
check opt-equals-value [ $? -eq 1 ]
cp "$seed" "$tmp/-dash.pbs"
(cd "$tmp" && "$pbcheck" run -- -dash.pbs) >"$tmp/out" 2>&1
check double-dash-ends-options [ $? -eq 0 ]
(cd "$tmp" && "$pbcheck" run -dash.pbs) >"$tmp/out" 2>"$tmp/err"
check dash-file-is-an-option [ $? -eq 2 ]
# Decimal only: 0100 is a hundred bytes (0x64), not octal 64 (0x40).
"$pbcheck" run "$seed" --trace --dma-size 0100 >"$tmp/out"
check decimal-not-octal grep -q 'DmaSize=0x64 ' "$tmp/out"
"$pbcheck" run "$seed" --trace --dma-size=0100 >"$tmp/out"
check decimal-not-octal-equals grep -q 'DmaSize=0x64 ' "$tmp/out"
"$pbcheck" run "$seed" --dma-size 18014398509481985K >"$tmp/out" 2>"$tmp/err"
check size-overflow-exit-2 [ $? -eq 2 ]
check size-overflow-one-line [ "$(wc -l <"$tmp/err")" -eq 1 ]
check size-overflow-wording grep -q "^pbcheck: run: --dma-size needs a size between 1 and 1M, got '18014398509481985K'$" "$tmp/err"
"$pbcheck" run "$seed" --dma-size >"$tmp/out" 2>"$tmp/err"
check missing-value-exit-2 [ $? -eq 2 ]
check missing-value-one-line [ "$(wc -l <"$tmp/err")" -eq 1 ]
"$pbcheck" certify --target reference --seed 0x10 >"$tmp/out" 2>"$tmp/err"
check no-hex [ $? -eq 2 ]
"$pbcheck" --version >"$tmp/out"
check version-exit [ $? -eq 0 ]
check version-line grep -Eq '^pbcheck [0-9]+\.[0-9]+\.[0-9]+ \(git [^ )]+\)$' "$tmp/out"
# -V and the verb 'version' say the same.
for spelling in -V version; do
    "$pbcheck" "$spelling" >"$tmp/v" 2>&1
    check "version-as-$spelling" cmp -s "$tmp/out" "$tmp/v"
done
# run without --target judges the reference, and says so before anything else.
"$pbcheck" run "$seed" >"$tmp/out" 2>&1
check run-no-target-says-reference [ "$(head -1 "$tmp/out")" = \
    "run: no --target: judging pbcheck's reference builder (--target NAME or libNAME.so for yours)" ]
"$pbcheck" run "$seed" --target reference >"$tmp/out" 2>&1
check run-target-given-no-note bash -c "! grep -q 'no --target' '$tmp/out'"
# certify's rule table: only the rules that failed, and a total; --all-rules
# every row (summary.md always has every row).
"$pbcheck" certify --target mutant-trunc32 --quick --out "$tmp/rt" --run-id r >"$tmp/out" 2>&1
rules=$("$pbcheck" list rules | grep -c '^PB-')
check rule-table-nonzero-only awk '/^PB-/ && $2 == 0 {bad = 1} /^PB-/ {n++} END {exit bad || n == 0}' "$tmp/out"
check rule-table-total grep -Eq "^rules: [1-9][0-9]* failing cases under [1-9][0-9]* of $rules rules" "$tmp/out"
check rule-table-summary-md-all [ "$(grep -c '^| PB-' "$tmp/rt/r/summary.md")" -ge "$rules" ]
"$pbcheck" certify --target reference --quick --all-rules --out "$tmp/rt" --run-id all >"$tmp/out" 2>&1
check rule-table-all-rules [ "$(grep -c '^PB-[A-Z0-9-]* *0$' "$tmp/out")" -eq "$rules" ]
# --cases narrows the suite to the cases whose names match its globs: no
# random phase, and never CONFORMANT (INCOMPLETE when all pass, NOT
# CONFORMANT when one fails); a glob that matches nothing, or an empty
# one, is a usage error before any folder is made.
"$pbcheck" certify --target reference --cases 'fill/*,discard/*' --out "$tmp/narrow" --run-id r >"$tmp/out" 2>"$tmp/err"
check cases-exit-1 [ $? -eq 1 ]
check cases-incomplete grep -qx 'verdict: INCOMPLETE: --cases ran part of the suite (reports in '"$tmp"'/narrow/r/)' "$tmp/out"
check cases-says-how-many grep -Eq '^pbcheck: certify: --cases: [1-9][0-9]* of the suite.s [1-9][0-9]* cases; the verdict is at best INCOMPLETE$' "$tmp/err"
check cases-only-matching python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); n=[r["name"] for r in d["results"]]
sys.exit(0 if n and d["random_cases"] == 0 and d["verdict"] == "incomplete" and
         d["incomplete_reason"] == "--cases ran part of the suite" and
         any(x.startswith("fill/") for x in n) and any(x.startswith("discard/") for x in n) and
         all(x.startswith(("fill/", "discard/")) for x in n) else 1)' "$tmp/narrow/r/report.json"
"$pbcheck" certify --target mutant-fill-tail --quick --cases 'fill/*' --out "$tmp/narrow" --run-id bug >"$tmp/out" 2>&1
check cases-failure-exit-1 [ $? -eq 1 ]
check cases-failure-not-conformant grep -q '^verdict: NOT CONFORMANT' "$tmp/out"
"$pbcheck" certify --target reference --quick --cases 'no-such-group/*' --out "$tmp/narrow-none" >"$tmp/out" 2>"$tmp/err"
check cases-none-exit-2 [ $? -eq 2 ]
check cases-none-one-line [ "$(wc -l <"$tmp/err")" -eq 1 ]
check cases-none-says-why grep -q "^pbcheck: certify: --cases: 'no-such-group/\*' matches none of the suite's [0-9]* cases" "$tmp/err"
check cases-none-no-folder test ! -e "$tmp/narrow-none"
"$pbcheck" certify --target reference --cases 'fill/*,' --out "$tmp/narrow-none" >"$tmp/out" 2>"$tmp/err"
check cases-empty-glob-exit-2 [ $? -eq 2 ]
check cases-empty-glob-no-folder test ! -e "$tmp/narrow-none"
# each glob must match: a typo beside a good glob is named
"$pbcheck" certify --target reference --quick --cases 'fill/*,dicsard/*' --out "$tmp/narrow-none" >"$tmp/out" 2>"$tmp/err"
check cases-typo-exit-2 [ $? -eq 2 ]
check cases-typo-named grep -q "^pbcheck: certify: --cases: 'dicsard/\\*' matches none" "$tmp/err"
long=$(printf 'x%.0s' $(seq 256))
"$pbcheck" certify --target reference --cases "fill/*,$long" --out "$tmp/narrow-none" >"$tmp/out" 2>"$tmp/err"
check cases-long-glob-exit-2 [ $? -eq 2 ]
check cases-long-glob-no-folder test ! -e "$tmp/narrow-none"
# every file of a narrowed run says INCOMPLETE, and report.sarif is a category of its own
check cases-summary-incomplete grep -q 'INCOMPLETE' "$tmp/narrow/r/summary.md"
check cases-junit-incomplete grep -q 'name="incomplete_reason" value="--cases ran part of the suite"' "$tmp/narrow/r/junit.xml"
check cases-html-incomplete grep -q -- '--cases ran part of the suite' "$tmp/narrow/r/index.html"
check cases-sarif-category grep -q '"id": "pbcheck-certify-cases/reference/r"' "$tmp/narrow/r/report.sarif"
# an expired waiver fails a narrowed run as it fails a whole one
printf 'fill/* PB-DIVERGE 2000-01-01 an old one\n' >"$tmp/expired-waiver"
"$pbcheck" certify --target reference --quick --cases 'discard/*' --waivers "$tmp/expired-waiver" --out "$tmp/narrow" \
    --run-id expired >"$tmp/out" 2>&1
check cases-expired-waiver-not-conformant grep -q '^verdict: NOT CONFORMANT' "$tmp/out"
# '*' keeps every case: the suite, no random phase, and a verdict that can be CONFORMANT
"$pbcheck" certify --target reference --quick --cases '*' --out "$tmp/narrow" --run-id all >"$tmp/out" 2>"$tmp/err"
check cases-all-conformant grep -q '^verdict: CONFORMANT' "$tmp/out"
check cases-all-says-every grep -q -- '--cases: [0-9]* of the suite.s [0-9]* cases (every one)$' "$tmp/err"
# A near miss is named: verbs, options, pbcheck's own options; 'help VERB' is 'VERB --help'.
"$pbcheck" certfy >"$tmp/out" 2>"$tmp/err"
check typo-verb-exit-2 [ $? -eq 2 ]
check typo-verb-suggests grep -qx "pbcheck: unknown verb 'certfy'; did you mean 'certify'? (try 'pbcheck --help')" "$tmp/err"
"$pbcheck" --verison >"$tmp/out" 2>"$tmp/err"
check typo-own-option-exit-2 [ $? -eq 2 ]
check typo-own-option-suggests grep -q "unknown option '--verison'; did you mean '--version'?" "$tmp/err"
"$pbcheck" certify --target reference --tiem 3 >"$tmp/out" 2>"$tmp/err"
check typo-option-exit-2 [ $? -eq 2 ]
check typo-option-suggests grep -q "^pbcheck: certify: unknown option '--tiem'; did you mean '--time'?" "$tmp/err"
"$pbcheck" run "$seed" --zzzzzz >"$tmp/out" 2>"$tmp/err"
check far-option-no-guess grep -qx "pbcheck: run: unknown option '--zzzzzz' (try 'pbcheck run --help')" "$tmp/err"
"$pbcheck" help certify >"$tmp/out" 2>&1
check help-verb-exit-0 [ $? -eq 0 ]
"$pbcheck" certify --help >"$tmp/help"
check help-verb-is-verb-help cmp -s "$tmp/out" "$tmp/help"
"$pbcheck" help cerify >"$tmp/out" 2>"$tmp/err"
check help-typo-exit-2 [ $? -eq 2 ]
check help-typo-suggests grep -q "did you mean 'certify'" "$tmp/err"
"$pbcheck" list rules >"$tmp/out"
# Every rule pbcheck knows is documented in docs/rules.md, and no other.
awk '{print $1}' "$tmp/out" | grep '^PB-' | sort >"$tmp/listed"
# Each row opens with the anchor triage.sarif's helpUri names: <a id="pb-x"></a>PB-X.
grep -oE '^\| <a id="[a-z0-9-]+"></a>PB-[A-Z0-9-]* ' "$src/docs/rules.md" |
    sed -E 's/^\| <a id="([a-z0-9-]+)"><\/a>(PB-[A-Z0-9-]*) $/\1 \2/' |
    awk 'tolower($2) == $1 {print $2}' | sort >"$tmp/documented"
check list-rules-documented cmp -s "$tmp/listed" "$tmp/documented"
check list-rules-count [ "$(wc -l <"$tmp/listed")" -ge 15 ]
check list-rules-sids grep -q '^PB-STATUS  *S06, S21-S23  *BuildPagingBuffer returns' "$tmp/out"
"$pbcheck" list >"$tmp/out"
check list-all grep -q '^rules:$' "$tmp/out"
check list-all-rules [ "$(grep -c '^PB-' "$tmp/out")" -eq "$(wc -l <"$tmp/listed")" ]
for verb in run disasm certify replay encode fuzz bench list; do
    "$pbcheck" "$verb" --help >"$tmp/out" 2>&1
    check "$verb-help-exit-0" [ $? -eq 0 ]
    check "$verb-help-default" grep -q 'default' "$tmp/out"
    check "$verb-help-example" grep -q -A1 '^example:' "$tmp/out"
done
"$pbcheck" bench --execs-only --time 1 >"$tmp/out"
check bench-hidden-execs-only grep -Eq '^[0-9]+\.[0-9]$' "$tmp/out"
# (a') in the sanitizer build: the same on the committed fuzzer-evolved corpus.
"$pbcheck" bench --execs-only --corpus "$src/corpus/bench" --time 1 >"$tmp/out"
check bench-hidden-execs-corpus grep -Eq '^[1-9][0-9]*\.[0-9]$' "$tmp/out"
# (p)'s call-heavy inputs pass through the reference and are call-heavy:
# thousands of BuildPagingBuffer calls or submissions each.
"$pbcheck" bench --calls-seeds "$tmp/calls"
check bench-calls-seeds [ "$(ls "$tmp/calls" | wc -l)" -eq 4 ]
"$pbcheck" run --no-fork "$tmp"/calls/*.pbs >"$tmp/out" 2>&1
check bench-calls-pass grep -q '^run: 4 passed, 0 failed, 0 skipped$' "$tmp/out"
check bench-calls-heavy [ "$(awk '/^pass/ {gsub(/[(,]/, ""); if ($7 + 2 * $11 >= 3000) n++} END {print n}' "$tmp/out")" = 4 ]
"$pbcheck" bench --calls-only --time 1 --calls-corpus "$tmp/calls" >"$tmp/out" 2>/dev/null
check bench-calls-only-rows [ "$(grep -cE '^\| (a 2 MiB|2,047|1,000|2,000|workers|--no-fork) .*\| [0-9.]+ \|' "$tmp/out")" -eq 6 ]

finish
