#!/usr/bin/env bash
# pbcheck triage end to end (docs/triage.md). For several planted bugs, a
# crash corpus as a campaign leaves it: libFuzzer's findings (when this
# build has the fuzz targets) and every seed that fails the bug, written
# as libFuzzer artifacts (crash-*) and as AFL++ output folders (a -M and
# an -S instance's crashes/id:*, with their README.txt and a queue that is
# not failures), duplicates, and inputs that no longer fail. Triage must
# give exactly one failing bucket per planted bug, with its rule, minimized
# to a few operations that fail the same way; a bucket of the inputs that
# do not reproduce; valid triage.json (its schema) and triage.sarif (the
# OASIS SARIF 2.1.0 schema); --join marks buckets known and gone; hostile
# builders give crash (at their own source line) and timeout buckets;
# --promote feeds the regression corpus.
# Usage: triage_test.sh PBCHECK SOURCE_DIR FUZZ_BIN_DIR|- SEGFAULT_LIB LOOP_LIB
set -u
pbcheck=$1 src=$2 fuzzbin=$3 segv=$4 loop=$5
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/check.sh"
sarif_schema=${PBC_SARIF_SCHEMA:-/usr/local/share/pbcheck/sarif-schema-2.1.0.json}

valid() { # valid DOCUMENT SCHEMA
    python3 -c 'import json,sys,jsonschema
s=json.load(open(sys.argv[2])); d=json.load(open(sys.argv[1]))
jsonschema.validators.validator_for(s)(s).validate(d)' "$1" "$2"
}
jq_py() { # jq_py FILE EXPRESSION (d is the document): exit status of the expression's truth
    python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if ($2) else 1)" "$1"
}

"$pbcheck" encode "$src"/corpus/seeds/*.pbs --out "$tmp/enc" >/dev/null
check sarif-schema-present [ -s "$sarif_schema" ]

corpus() { # corpus MUTANT DIR
    local m=$1 dir=$2 n=0 pass=""
    mkdir -p "$dir/lf" "$dir/afl/main/crashes" "$dir/afl/s1/crashes" "$dir/afl/main/queue"
    for f in "$src"/corpus/seeds/*.pbs; do
        local name rc
        name=$(basename "$f" .pbs)
        "$pbcheck" run "$f" --target "$m" >/dev/null 2>&1
        rc=$?
        if [ $rc -eq 0 ]; then
            [ -n "$pass" ] || pass=$name
            cp "$tmp/enc/$name.bin" "$dir/afl/main/queue/id:$(printf %06d $n),time:0,execs:0,orig:$name"
            continue
        fi
        [ $rc -eq 1 ] || continue
        n=$((n + 1))
        case $((n % 3)) in
        0) cp "$tmp/enc/$name.bin" "$dir/lf/crash-$name" ;;
        1) cp "$tmp/enc/$name.bin" "$dir/afl/main/crashes/id:$(printf %06d $n),sig:06,src:000000,op:havoc,rep:2" ;;
        2) cp "$tmp/enc/$name.bin" "$dir/afl/s1/crashes/id:$(printf %06d $n),sig:06,src:000001,op:flip1,pos:3" ;;
        esac
    done
    printf 'Command line used to find this crash:\n\n./fuzz_diff\n' >"$dir/afl/main/crashes/README.txt"
    local first
    first=$(find "$dir/afl" -path '*/crashes/id:*' | sort | head -1)
    [ -n "$first" ] && cp "$first" "$dir/lf/crash-duplicate"
    cp "$tmp/enc/$pass.bin" "$dir/lf/crash-no-longer-fails"
    if [ "$fuzzbin" != - ] && [ -x "$fuzzbin/fuzz_diff_${m//-/_}" ]; then
        "$pbcheck" fuzz --target "$m" --time 20 --runs 100000 --stop-at-crash --out "$tmp/fz-$m" --bin-dir "$fuzzbin" >/dev/null 2>&1
        cp "$tmp/fz-$m"/artifacts/crash-* "$dir/lf/" 2>/dev/null
    fi
}

for pair in mutant-no-fence=PB-FENCE mutant-busy-always=PB-BUSY-IDLE mutant-window-16m=PB-DIVERGE \
    mutant-mdl-scribble=PB-DMA-OVERRUN; do
    m=${pair%%=*} rule=${pair#*=}
    corpus "$m" "$tmp/in-$m"
    out=$tmp/out-$m
    "$pbcheck" triage "$tmp/in-$m" --target "$m" --out "$out" >"$tmp/log" 2>&1
    check "$m-exit-fail" [ $? -eq 1 ]
    check "$m-json-valid" valid "$out/triage.json" "$src/docs/triage.schema.json"
    [ -s "$sarif_schema" ] && check "$m-sarif-valid" valid "$out/triage.sarif" "$sarif_schema"
    check "$m-one-failing-bucket" jq_py "$out/triage.json" \
        "[b['facts'].get('rule') for b in d['buckets'] if b['facts']['class'] not in ('no-repro', 'invalid')] == ['$rule']"
    check "$m-no-repro-bucket" jq_py "$out/triage.json" \
        "any(b['facts']['class'] == 'no-repro' and any(p.endswith('crash-no-longer-fails') for p in b['inputs']) for b in d['buckets'])"
    check "$m-afl-and-libfuzzer-inputs" jq_py "$out/triage.json" \
        "{'afl-crash', 'libfuzzer-crash'} <= {i['origin'] for i in d['inputs']}"
    check "$m-queue-and-readme-left-out" jq_py "$out/triage.json" \
        "not any('/queue/' in i['path'] or i['path'].endswith('README.txt') for i in d['inputs'])"
    check "$m-duplicate-seen" jq_py "$out/triage.json" \
        "any(i['path'].endswith('crash-duplicate') and 'duplicate_of' in i for i in d['inputs'])"
    check "$m-minimized" jq_py "$out/triage.json" \
        "all(b['repro_operations'] <= 4 for b in d['buckets'] if b['facts']['class'] not in ('no-repro', 'invalid'))"
    repro=$out/buckets/b001/repro.pbs
    "$pbcheck" run "$repro" --target "$m" >"$tmp/replay" 2>&1
    check "$m-repro-replays" grep -q "^FAIL .* $rule\$" "$tmp/replay"
    check "$m-md" grep -q "^## b001: " "$out/triage.md"
done

# One planted bug seen in several places: mutant-trunc32's 32-bit address
# truncation diverges in transfers and fills, in one pass and resumed, and
# faults where the address lands nowhere. Several buckets, one root cause,
# and SARIF that code scanning can use: it validates, its rule texts are
# the catalogue's, its helpUri names an anchor docs/rules.md has, and
# every result is at the builder's source in this repository (SRCROOT).
m=mutant-trunc32
corpus "$m" "$tmp/in-$m"
(cd "$src" && "$pbcheck" triage "$tmp/in-$m" --target $m --out "$tmp/trunc" --repeat 1) >"$tmp/log" 2>&1
check trunc32-several-buckets jq_py "$tmp/trunc/triage.json" \
    "len([b for b in d['buckets'] if b['facts']['class'] not in ('no-repro', 'invalid')]) >= 3"
check trunc32-one-root-cause jq_py "$tmp/trunc/triage.json" \
    "len({b['root_cause'] for b in d['buckets'] if b['facts']['class'] not in ('no-repro', 'invalid')}) == 1 and {b['facts']['rule'] for b in d['buckets'] if 'rule' in b['facts']} == {'PB-DIVERGE', 'PB-GPU-FAULT'}"
check trunc32-root-cause-printed grep -q '^r001  root cause of' "$tmp/log"
# The same bug as a fuzzing campaign finds it: the crash files libFuzzer
# wrote (tests/artifacts/README.md), one root cause however many buckets,
# the divergences whose wrong bytes render work wrote over included.
"$pbcheck" triage "$src/tests/artifacts/mutant-trunc32" --target $m --out "$tmp/trunc-lf" --repeat 1 >"$tmp/log" 2>&1
check trunc32-artifacts-fail [ $? -eq 1 ]
check trunc32-artifacts-one-root-cause jq_py "$tmp/trunc-lf/triage.json" \
    "len(d['inputs']) == 50 and sum(b['count'] for b in d['buckets'] if b['facts']['class'] not in ('no-repro', 'invalid')) >= 45 and len([b for b in d['buckets'] if b['facts']['class'] not in ('no-repro', 'invalid')]) >= 3 and len({b['root_cause'] for b in d['buckets'] if b['facts']['class'] not in ('no-repro', 'invalid')}) == 1"
check trunc32-artifacts-one-line grep -q '1 failing root cause,' "$tmp/log"
check trunc32-json-valid valid "$tmp/trunc/triage.json" "$src/docs/triage.schema.json"
[ -s "$sarif_schema" ] && check trunc32-sarif-valid valid "$tmp/trunc/triage.sarif" "$sarif_schema"
"$pbcheck" list rules >"$tmp/rules"
check trunc32-sarif-for-code-scanning python3 -c 'import json,os,re,sys
run=json.load(open(sys.argv[1]))["runs"][0]; src=sys.argv[3]
catalogue=open(sys.argv[2]).read(); rulesmd=open(src + "/docs/rules.md").read()
ok = run["automationDetails"]["id"].startswith("pbcheck-triage/") and run["invocations"][0]["executionSuccessful"]
for rule in run["tool"]["driver"]["rules"]:
    ok = ok and rule["shortDescription"]["text"] in catalogue and rule["id"] in catalogue
    anchor = rule["helpUri"].split("#")[1]
    ok = ok and rule["helpUri"].split("#")[0].endswith("docs/rules.md") and ("<a id=\"%s\">" % anchor) in rulesmd
for r in run["results"]:
    place = r["locations"][0]["physicalLocation"]
    ok = ok and place["artifactLocation"].get("uriBaseId") == "SRCROOT" and place["region"]["startLine"] > 0
    ok = ok and os.path.isfile(os.path.join(src, place["artifactLocation"]["uri"]))
ok = ok and {r["level"] for r in run["results"] if r["ruleId"] == "PB-DIVERGE"} == {"error"} and len(run["results"]) >= 3
sys.exit(not ok)' "$tmp/trunc/triage.sarif" "$tmp/rules" "$src"

# --jobs 2: the same buckets, the same inputs in each, the same replays.
m=mutant-window-16m
"$pbcheck" triage "$tmp/in-$m" --target $m --out "$tmp/jobs2" --jobs 2 >"$tmp/log" 2>&1
check jobs-same-buckets python3 -c 'import json,sys
a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2]))
key=lambda d: ([(x["signature"], x["count"]) for x in d["buckets"]], [(i["path"], i["bucket"], i["reproduced"]) for i in d["inputs"]])
sys.exit(key(a) != key(b))' "$tmp/out-$m/triage.json" "$tmp/jobs2/triage.json"
check jobs-no-leftovers [ -z "$(ls -A "$tmp/jobs2" | grep '^\.')" ]

# --join: the same inputs again are all known; without the failing ones,
# their bucket is gone.
m=mutant-no-fence
"$pbcheck" triage "$tmp/in-$m" --target $m --out "$tmp/again" --join "$tmp/out-$m" >"$tmp/log" 2>&1
check join-known jq_py "$tmp/again/triage.json" "all(b['status'] == 'known' for b in d['buckets']) and d['gone'] == []"
check join-json-valid valid "$tmp/again/triage.json" "$src/docs/triage.schema.json"
mkdir -p "$tmp/only-pass"
cp "$tmp/in-$m/lf/crash-no-longer-fails" "$tmp/only-pass/"
"$pbcheck" triage "$tmp/only-pass" --target $m --out "$tmp/fixed" --join "$tmp/out-$m" >"$tmp/log" 2>&1
check join-exit-pass [ $? -eq 0 ]
check join-gone jq_py "$tmp/fixed/triage.json" "[g['title'] for g in d['gone']] == ['rule PB-FENCE']"
check join-gone-printed grep -q '^gone .*PB-FENCE' "$tmp/log"

# Hostile builders on every Fill: a crash at their own source line, and a
# hang, each one bucket; the passing seeds in another.
mkdir -p "$tmp/fills"
cp "$tmp"/enc/fill-*.bin "$tmp"/enc/transfer-seg-to-mdl.bin "$tmp/fills/"
"$pbcheck" triage "$tmp/fills" --target "$segv" --out "$tmp/segv" --case-timeout 5 >"$tmp/log" 2>&1
# A release build sees the signal (crash SIGSEGV); a sanitizer build the
# sanitizer's report of it (sanitizer SEGV, WRITE).
check segv-crash-bucket jq_py "$tmp/segv/triage.json" \
    "[b['facts']['class'] for b in d['buckets']] in (['crash', 'no-repro'], ['sanitizer', 'no-repro']) and d['buckets'][0]['facts']['kind'] in ('SIGSEGV', 'SIGBUS', 'SEGV', 'BUS')"
check segv-own-frame jq_py "$tmp/segv/triage.json" \
    "d['buckets'][0]['facts'].get('location', '').split(':')[0].endswith('hostile.c')"
[ -s "$sarif_schema" ] && check segv-sarif-valid valid "$tmp/segv/triage.sarif" "$sarif_schema"
check segv-sarif-at-source python3 -c 'import json,sys
r=json.load(open(sys.argv[1]))["runs"][0]["results"][0]
sys.exit(not r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].endswith("hostile.c"))' "$tmp/segv/triage.sarif"
# --jobs 2 where workers crash: the other process is pbcheck's own, not
# something the dead worker left behind, and is not swept away with it.
"$pbcheck" triage "$tmp/fills" --target "$segv" --out "$tmp/segv2" --case-timeout 5 --jobs 2 >"$tmp/log" 2>&1
check jobs-survive-crashes python3 -c 'import json,sys
a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2]))
key=lambda d: [(x["facts"]["class"], x["count"]) for x in d["buckets"]]
sys.exit(key(a) != key(b) or "ended without its findings" in open(sys.argv[3]).read())' \
    "$tmp/segv/triage.json" "$tmp/segv2/triage.json" "$tmp/log"
check jobs-crash-no-leftovers [ -z "$(ls -A "$tmp/segv2" | grep '^\.')" ]
"$pbcheck" triage "$tmp/fills" --target "$loop" --out "$tmp/loop" --case-timeout 2 --repeat 1 >"$tmp/log" 2>&1
check loop-timeout-bucket jq_py "$tmp/loop/triage.json" \
    "[b['facts']['class'] for b in d['buckets']] == ['timeout', 'no-repro']"

# --promote: the reproducer joins a regression corpus that replays it.
"$pbcheck" triage --promote b001 --out "$tmp/out-mutant-busy-always" --to "$tmp/regressions" >"$tmp/log" 2>&1
check promote-written [ "$(ls "$tmp/regressions" | wc -l)" -eq 1 ]
check promote-replays "$(dirname "$0")/regressions_test.sh" "$pbcheck" "$tmp/regressions"
"$pbcheck" triage --promote b999 --out "$tmp/out-mutant-busy-always" --to "$tmp/regressions" >/dev/null 2>"$tmp/err"
check promote-unknown-bucket [ $? -eq 2 ]
check promote-one-line [ "$(wc -l <"$tmp/err")" -eq 1 ]
# Without --to, only into a corpus/regressions that is there, said by its full path.
mkdir -p "$tmp/elsewhere"
(cd "$tmp/elsewhere" && "$pbcheck" triage --promote b001 --out "$tmp/out-mutant-busy-always") >"$tmp/log" 2>"$tmp/err"
check promote-needs-to [ $? -eq 2 ]
check promote-says-to grep -q -- '--to DIR' "$tmp/err"
check promote-made-nothing [ ! -e "$tmp/elsewhere/corpus" ]
mkdir -p "$tmp/elsewhere/corpus/regressions"
(cd "$tmp/elsewhere" && "$pbcheck" triage --promote b001 --out "$tmp/out-mutant-busy-always") >"$tmp/log" 2>"$tmp/err"
check promote-into-the-one-here grep -q "promoted to $(realpath "$tmp/elsewhere")/corpus/regressions/" "$tmp/log"

finish
