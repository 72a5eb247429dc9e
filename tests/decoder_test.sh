#!/usr/bin/env bash
# The vendor's ISA description in a decoder process of its own
# (harness/ddi/decoder.h, PBCHECK_SPLIT=1), given bytes only:
#  - example-gpu passes split, its disassembly is the same split and in
#    process, and certify's provenance.decoder says where the decoder ran
#    and that its answers, asked again in a fresh process, were the same;
#  - each decoder of tests/attacks/impure_decoder.c gives its documented
#    outcome: a decoder whose answers drift with its calls or with the
#    time fails the run (the memo in the worker, or the audit at the end);
#    one that reads the environment reads nothing (it passes split, fails
#    in process); one that forks or opens a file is killed by SIGSYS; a
#    garbled, oversized or missing answer fails its case with a line that
#    says so, within the deadline (PBCHECK_DECODER_SECONDS);
#  - no run leaves a process holding the library.
# Usage: decoder_test.sh PBCHECK SOURCE_DIR LIB_GPU KIND=LIB...
set -u
# Runs without PBCHECK_SPLIT=1 below put the judge beside the builder.
export PBCHECK_SPLIT=0
pbcheck=$1 src=$2 gpu=$3
shift 3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/check.sh"
seeds=("$src"/corpus/seeds/fill-basic.pbs "$src"/corpus/seeds/everything.pbs "$src"/corpus/seeds/volume-maps.pbs)
declare -A lib
for kv in "$@"; do lib[${kv%%=*}]=${kv#*=}; done

# Whether a process still maps library $1 (a decoder or a driver left behind).
left() { grep -ls -- "$1" /proc/[0-9]*/maps 2>/dev/null | grep -v "/proc/$$/" | head -1; }

split() { # KIND [ENV...]: a split run of the library of KIND; its exit in $rc, its output in $tmp/KIND
    local kind=$1
    shift
    local start=$SECONDS
    env "$@" PBCHECK_SPLIT=1 PBCHECK_DECODER_SECONDS=1 PBCHECK_DECODER_AUDIT=all \
        "$pbcheck" run "${seeds[@]}" --target "${lib[$kind]}" >"$tmp/$kind" 2>&1
    rc=$?
    took=$((SECONDS - start))
    sleep 0.2
    check "$kind-no-process-left" [ -z "$(left "${lib[$kind]}")" ]
    check "$kind-no-harness-bug" bash -c "! grep -q 'HARNESS BUG' '$tmp/$kind'"
}

# The honest decoder: the same verdicts, the same disassembly.
PBCHECK_SPLIT=1 "$pbcheck" run "${seeds[@]}" --target "$gpu" >"$tmp/gpu" 2>&1
check gpu-passes-split [ $? -eq 0 ]
for s in "${seeds[@]}"; do
    "$pbcheck" disasm "$s" --target "$gpu" >"$tmp/disasm-in" 2>&1
    PBCHECK_SPLIT=1 "$pbcheck" disasm "$s" --target "$gpu" >"$tmp/disasm-split" 2>&1
    check "disasm-same-$(basename "$s" .pbs)" cmp -s "$tmp/disasm-in" "$tmp/disasm-split"
    cat "$tmp/disasm-split" >>"$tmp/disasm-all"
done
check disasm-not-empty grep -q 'FILL' "$tmp/disasm-all"
PBCHECK_SPLIT=1 "$pbcheck" certify --quick --target "$gpu" --out "$tmp/cert" >"$tmp/cert.txt" 2>&1
check gpu-certify-conformant [ $? -eq 0 ]
report=$tmp/cert/latest/report.json
check provenance-decoder python3 - "$report" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
d = r["provenance"]["decoder"]
assert d["isa"] == "exgpu" and d["process"] == "own", d
assert d["hooks"] == ["decode", "disasm"] and d["pte_size"] == 16 and d["pt_levels"] == 3, d
assert d["xxh3_128"] == r["provenance"]["target_binary"]["xxh3_128"], d
p = d["purity"]
assert p["audited"] and p["pure"] is True and p["answers_recorded"] > 0 and p["answers_asked_again"] > 0, p
EOF
summary=$(dirname "$report")/summary.md
check provenance-summary grep -q 'ISA description (decoder): .exgpu: decode, disasm; 16-byte .*in a decoder process of its own; purity: ' "$summary"
check provenance-junit grep -q 'name="decoder_process" value="own"' "$(dirname "$report")/junit.xml"
"$pbcheck" certify --quick --no-random --target "$gpu" --out "$tmp/cert-in" >/dev/null 2>&1
check provenance-in-process python3 -c "
import json
d = json.load(open('$tmp/cert-in/latest/report.json'))['provenance']['decoder']
assert d['process'] == 'worker' and d['purity']['audited'] is False and d['purity']['pure'] is None, d"

# Answers that drift: with its count of calls (the memo in the worker sees
# the same bytes answered twice, when a question asked again crosses: one
# in 16 by default, every one with PBCHECK_DECODER_RECHECK=1; the audit at
# the end sees it either way), with the time (only a fresh process sees).
split count
check count-fails [ "$rc" -eq 1 ]
check count-finding grep -q 'the ISA description is not a pure function: bytes [0-9a-f]*.* decoded as ' "$tmp/count"
split count PBCHECK_DECODER_RECHECK=1
check count-recheck-fails [ "$rc" -eq 1 ]
check count-memo grep -q 'not a pure function: .* by the same decoder process' "$tmp/count"
split time
check time-fails [ "$rc" -eq 1 ]
check time-finding grep -q 'not a pure function: .* in a fresh decoder process' "$tmp/time"
check time-cases-pass grep -Eq '^run: 3 passed, 1 failed' "$tmp/time"
"$pbcheck" certify --quick --target "${lib[time]}" --out "$tmp/cert-time" >/dev/null 2>&1
check time-in-process-conformant [ $? -eq 0 ]
PBCHECK_SPLIT=1 "$pbcheck" certify --quick --target "${lib[time]}" --out "$tmp/cert-time-split" >"$tmp/cert-time.txt" 2>&1
check time-split-not-conformant [ $? -eq 1 ]
check time-split-verdict grep -q '^verdict: NOT CONFORMANT' "$tmp/cert-time.txt"
check time-split-report python3 -c "
import json
r = json.load(open('$tmp/cert-time-split/latest/report.json'))
c = [c for c in r['results'] if c['name'] == 'decoder-purity']
assert c and c[0]['verdict'] == 'fail' and 'not a pure function' in c[0]['message'], c
assert r['provenance']['decoder']['purity']['pure'] is False"

# The environment: the decoder process has none.
"$pbcheck" run "${seeds[@]}" --target "${lib[env]}" >/dev/null 2>&1 </dev/null
in_rc=$?
PBCHECK_IMPURE_ENV=1 "$pbcheck" run "${seeds[@]}" --target "${lib[env]}" >/dev/null 2>&1
check env-read-in-process [ $? -eq 1 ] && check env-unset-passes-in-process [ "$in_rc" -eq 0 ]
split env PBCHECK_IMPURE_ENV=1
check env-not-seen-split [ "$rc" -eq 0 ]

# What no pure function does: killed by the stricter seccomp filter.
for kind in fork open; do
    split $kind
    check $kind-fails [ "$rc" -eq 1 ]
    check $kind-sigsys grep -q 'the ISA decoder process was killed by SIGSYS' "$tmp/$kind"
done

# Answers that are no answers.
split garbled
check garbled-fails [ "$rc" -eq 1 ]
check garbled-said grep -q 'the ISA decoder process answered with a frame of 8 bytes' "$tmp/garbled"
split oversized
check oversized-fails [ "$rc" -eq 1 ]
check oversized-said grep -q 'the ISA decoder process answered with 100000 bytes, over the limit' "$tmp/oversized"
split silent
check silent-fails [ "$rc" -eq 1 ]
check silent-said grep -q 'the ISA decoder process gave no answer within 1 s' "$tmp/silent"
check silent-bounded [ "$took" -lt 30 ]
finish
