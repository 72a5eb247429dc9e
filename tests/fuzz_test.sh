#!/usr/bin/env bash
# Fuzzing smoke tests (CTest label "fuzz"), one mode per invocation:
#   fuzz_test.sh clean PBCHECK BIN_DIR TARGET    20,000 inputs or 90 s (at least 1,000), no finding
#   fuzz_test.sh finds PBCHECK BIN_DIR MUTANT [SEED...]
#                                                a finding, which replays (from
#                                                the given seeds only, if any)
#   fuzz_test.sh keeps-going PBCHECK BIN_DIR     a crashing seed does not end --time, any --jobs
#   fuzz_test.sh targets PBCHECK BIN_DIR         a binary, .dict, .options per target
#   fuzz_test.sh afl PBCHECK SRC_DIR WORK_DIR    AFL++ build runs the seed corpus
#   fuzz_test.sh oss-fuzz PBCHECK SRC_DIR ENGINE .clusterfuzzlite/build.sh as OSS-Fuzz runs it (libfuzzer|afl)
set -euo pipefail
mode=$1 pbcheck=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

case $mode in
clean)
    bin=$3 target=$4
    rc=0
    # Bounded in time too: under an unoptimised ASan build, inputs that grow
    # to the fuzz budget (256 MiB allocations) take seconds each.
    "$pbcheck" fuzz --target "$target" --runs 20000 --time 45 --stop-at-crash --out "$tmp/out" --bin-dir "$bin" >"$tmp/log" ||
        rc=$?
    cat "$tmp/log"
    [ $rc -eq 0 ] || { tail -40 "$tmp/out/fuzz-0.log"; fail "fuzzing $target exited $rc"; }
    runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$tmp/out/fuzz-0.log")
    [ "${runs:-0}" -ge 1000 ] || fail "ran ${runs:-no} inputs, fewer than 1000"
    grep -q "fuzz: 0 new findings" "$tmp/log" || fail "findings on $target"
    ;;
finds)
    bin=$3 mutant=$4
    seeds=()
    if [ $# -gt 4 ]; then
        mkdir "$tmp/seeds"
        cp "${@:5}" "$tmp/seeds/"
        seeds=(--seeds "$tmp/seeds")
    fi
    rc=0
    "$pbcheck" fuzz --target "$mutant" --runs 200000 --time 240 --stop-at-crash --out "$tmp/out" --bin-dir "$bin" \
        "${seeds[@]}" >"$tmp/log" || rc=$?
    cat "$tmp/log"
    [ $rc -eq 1 ] || fail "fuzzing $mutant exited $rc, expected 1 (a finding)"
    artifacts=("$tmp"/out/artifacts/crash-*)
    artifact=${artifacts[0]}
    [ -f "$artifact" ] || fail "no crash artifact"
    grep -q "replay: \(pbcheck\|$(realpath "$pbcheck")\) replay --target $mutant $artifact" "$tmp/log" || fail "no replay line"
    fuzz_rule=$(sed -n "s/^pbcheck: FAIL on target $mutant: \([A-Z-]*\)$/\1/p" "$tmp/out/fuzz-0.log")
    [ -n "$fuzz_rule" ] || fail "the fuzz target did not name a rule"
    rc=0
    "$pbcheck" replay --target "$mutant" "$artifact" >"$tmp/replay" || rc=$?
    cat "$tmp/replay"
    [ $rc -eq 1 ] || fail "replay exited $rc, expected 1"
    grep -q "^FAIL  $artifact  $fuzz_rule$" "$tmp/replay" || fail "replay does not report $fuzz_rule"
    # The same input passes on the reference: the finding is the mutant's.
    "$pbcheck" replay --target reference "$artifact" >/dev/null || fail "the reference fails it too"
    ;;
keeps-going)
    # mutant-trunc32 crashes on several seeds: fuzzing goes on for --time
    # with one job as with two, and --stop-at-crash stops at once.
    bin=$3 secs=8
    for jobs in 1 2; do
        start=$(date +%s) rc=0
        "$pbcheck" fuzz --target mutant-trunc32 --time $secs --jobs $jobs --out "$tmp/j$jobs" --bin-dir "$bin" \
            >"$tmp/log" || rc=$?
        took=$(($(date +%s) - start))
        cat "$tmp/log"
        [ $rc -eq 1 ] || fail "--jobs $jobs exited $rc, expected 1 (findings)"
        grep -q "keeps fuzzing after a crash" "$tmp/log" || fail "--jobs $jobs does not say it keeps going"
        [ $took -ge $((secs - 1)) ] || fail "--jobs $jobs --time $secs stopped after ${took} s"
    done
    start=$(date +%s) rc=0
    "$pbcheck" fuzz --target mutant-trunc32 --time 60 --stop-at-crash --out "$tmp/stop" --bin-dir "$bin" \
        >"$tmp/log" || rc=$?
    took=$(($(date +%s) - start))
    cat "$tmp/log"
    [ $rc -eq 1 ] || fail "--stop-at-crash exited $rc, expected 1"
    grep -q "stops at the first crash" "$tmp/log" || fail "--stop-at-crash does not say it stops"
    [ $took -lt 30 ] || fail "--stop-at-crash ran ${took} s after a crashing seed"
    # Fuzzing again, where the only crashes are the ones already saved: still findings, not an engine error.
    rc=0
    "$pbcheck" fuzz --target mutant-trunc32 --runs 5 --stop-at-crash --out "$tmp/stop" --bin-dir "$bin" >"$tmp/log" ||
        rc=$?
    cat "$tmp/log"
    [ $rc -eq 1 ] || fail "a rerun on known crashes exited $rc, expected 1"
    ;;
targets)
    bin=$3
    # Legal variants are not fuzz targets (fuzz/CMakeLists.txt).
    for t in $("$pbcheck" list targets | awk '!/\[legal variant\]$/ {print $1}'); do
        b="$bin/fuzz_diff_${t//-/_}"
        [ -x "$b" ] && [ -f "$b.dict" ] && [ -f "$b.options" ] || fail "no fuzz target for builder $t"
    done
    for b in fuzz_parse fuzz_isa; do
        [ -x "$bin/$b" ] && [ -f "$bin/$b.dict" ] && [ -f "$bin/$b.options" ] || fail "no $b"
    done
    ;;
afl)
    src=$3 work=$4
    command -v afl-clang-fast >/dev/null || { echo "afl-clang-fast missing (apt-get install afl++)"; exit 77; }
    cmake -S "$src" -B "$work" -DCMAKE_C_COMPILER=afl-clang-fast -DCMAKE_CXX_COMPILER=afl-clang-fast++ \
        -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPBC_SANITIZE=ON -DPBC_FUZZ_ENGINE=afl -DBUILD_TESTING=OFF >/dev/null
    cmake --build "$work" -j2 --target fuzz_diff_reference fuzz_diff_mutant_trunc32 pbc_afl_mutator >/dev/null
    "$pbcheck" fuzz --target reference --prepare --out "$tmp/ref" >/dev/null
    # Every seed executes in the persistent, shared-memory build and gives coverage.
    AFL_QUIET=1 afl-showmap -q -i "$tmp/ref/corpus" -o "$tmp/maps" -- "$work/fuzz/fuzz_diff_reference"
    [ "$(ls "$tmp/maps" | wc -l)" -eq "$(ls "$tmp/ref/corpus" | wc -l)" ] || fail "afl-showmap missed seeds"
    for m in "$tmp"/maps/*; do [ -s "$m" ] || fail "no coverage for $(basename "$m")"; done
    # A short campaign with the custom mutator finds a planted bug.
    rc=0
    "$pbcheck" fuzz --target mutant-trunc32 --engine afl --time 30 --out "$tmp/afl" \
        --bin-dir "$work/fuzz" >"$tmp/log" || rc=$?
    cat "$tmp/log"
    [ $rc -eq 1 ] || { tail -30 "$tmp/afl/fuzz-0.log"; fail "afl-fuzz on mutant-trunc32 exited $rc"; }
    grep -q "custom mutator" "$tmp/afl/fuzz-0.log" || fail "the custom mutator was not loaded"
    crashes=("$tmp"/afl/afl/main/crashes/id:*)
    crash=${crashes[0]}
    rc=0
    "$pbcheck" replay --target mutant-trunc32 "$crash" >/dev/null || rc=$?
    [ $rc -eq 1 ] || fail "the AFL++ crash does not replay"
    # The campaign's output folder as it is, triaged (docs/triage.md): its
    # crashes in buckets of the planted bug's rules, its queue left out.
    rc=0
    "$pbcheck" triage "$tmp/afl/afl" --target mutant-trunc32 --out "$tmp/triage" --repeat 1 >"$tmp/triage.log" 2>&1 ||
        rc=$?
    [ $rc -eq 1 ] || { cat "$tmp/triage.log"; fail "triage of the AFL++ output exited $rc"; }
    python3 - "$tmp/triage/triage.json" <<'PY' || fail "triage of the AFL++ output: wrong buckets"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["inputs"] and all(i["origin"] == "afl-crash" for i in d["inputs"]), "not only crashes/"
failing = [b for b in d["buckets"] if b["facts"]["class"] not in ("no-repro", "invalid")]
assert failing and all(b["facts"].get("rule") in ("PB-DIVERGE", "PB-GPU-FAULT") for b in failing), "other failures"
PY
    ;;
oss-fuzz)
    # .clusterfuzzlite/build.sh with the environment OSS-Fuzz's base-builder
    # sets (infra/base-images/base-builder: compile, compile_libfuzzer,
    # compile_afl), for ENGINE libfuzzer or afl: every target it makes is
    # one that must not crash (no planted bug), and each runs its seeds.
    src=$3 engine=${4:-libfuzzer}
    mkdir -p "$tmp/src" "$tmp/work" "$tmp/out"
    ln -s "$src" "$tmp/src/pbcheck"
    export SRC="$tmp/src" WORK="$tmp/work" OUT="$tmp/out" SANITIZER=address FUZZING_ENGINE=$engine
    export ARCHITECTURE=x86_64 FUZZING_LANGUAGE=c
    san="-fsanitize=address -fsanitize-address-use-after-scope"
    base="-O1 -fno-omit-frame-pointer -gline-tables-only -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION"
    if [ "$engine" = afl ]; then
        command -v afl-clang-fast >/dev/null || { echo "afl-clang-fast missing (apt-get install afl++)"; exit 77; }
        export CC=afl-clang-fast CXX=afl-clang-fast++ LIB_FUZZING_ENGINE=-fsanitize=fuzzer
        export CFLAGS="$base $san" CXXFLAGS="$base $san"
        export AFL_QUIET=1
    else
        export CC=clang CXX=clang++ LIB_FUZZING_ENGINE=-fsanitize=fuzzer
        export CFLAGS="$base $san -fsanitize=fuzzer-no-link" CXXFLAGS="$base $san -fsanitize=fuzzer-no-link"
    fi
    (cd "$SRC/pbcheck" && bash "$SRC/pbcheck/.clusterfuzzlite/build.sh") >"$tmp/build.log" 2>&1 ||
        { tail -30 "$tmp/build.log"; fail "build.sh failed for $engine"; }
    unset AFL_QUIET
    expected=$("$pbcheck" list targets | awk '$1 == "reference" || /\[legal variant\]$/ {print "fuzz_diff_" $1}' | tr - _)
    expected="$expected fuzz_diff_example_gpu fuzz_diff_example_cpu fuzz_diff_example_worker fuzz_parse fuzz_isa"
    n=0
    for t in $expected; do
        for f in "$t" "$t.dict" "$t.options" "${t}_seed_corpus.zip"; do
            [ -f "$OUT/$f" ] || fail "build.sh did not make $f"
        done
    done
    for b in "$OUT"/*; do
        case $b in *.dict | *.options | *.zip) continue ;; esac
        t=$(basename "$b")
        case " $(echo $expected) " in *" $t "*) ;; *) fail "build.sh made $t, which is not a target that must not crash" ;; esac
        rm -rf "$tmp/corpus" && mkdir "$tmp/corpus"
        (cd "$tmp/corpus" && unzip -q "$OUT/${t}_seed_corpus.zip")
        [ "$(ls "$tmp/corpus" | wc -l)" -gt 0 ] || fail "empty seed corpus for $t"
        # No environment but what a runner has: the examples' builders are linked in.
        if [ "$engine" = afl ]; then
            # libAFLDriver outside afl-fuzz runs each file argument once.
            (cd "$tmp" && env -i PATH=/usr/bin:/bin "$b" "$tmp"/corpus/* >"$tmp/run.log" 2>&1) ||
                { tail -20 "$tmp/run.log"; fail "$t crashed on its seeds ($engine)"; }
            grep -q "^Execution successful" "$tmp/run.log" || fail "$t did not run ($engine)"
        else
            (cd "$tmp" && env -i PATH=/usr/bin:/bin "$b" -runs=100 -dict="$OUT/$t.dict" "$tmp/corpus" >"$tmp/run.log" 2>&1) ||
                { tail -20 "$tmp/run.log"; fail "$t crashed on its seeds ($engine)"; }
            grep -q "^Done [0-9]* runs" "$tmp/run.log" || fail "$t did not run ($engine)"
        fi
        n=$((n + 1))
    done
    echo "ClusterFuzzLite build ($engine): $n targets built, each ran its seeds without a crash"
    ;;
*)
    fail "unknown mode $mode"
    ;;
esac
