#!/bin/bash -eu
# Builds pbcheck's continuous-fuzzing targets the way OSS-Fuzz and
# ClusterFuzzLite expect, from their variables only: $CC, $CFLAGS,
# $LIB_FUZZING_ENGINE, $OUT and $SRC (the checkout is $SRC/pbcheck, or this
# script's repository); libFuzzer or AFL++ ($CC afl-clang-fast).
# The targets are what must never crash: the reference builder, every
# legal variant, the example builders (their sources linked into the
# binary) and the two parsers. The planted-bug builders crash by design,
# so they are not here: CTest fuzzes them (fuzz_finds_*, docs/fuzzing.md).
# For each target it writes to $OUT the binary, <target>_seed_corpus.zip,
# <target>.dict and <target>.options.
src="$SRC/pbcheck"
[ -f "$src/fuzz/oss-fuzz-build.sh" ] || src="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

common=(-std=c11 -D_POSIX_C_SOURCE=200809L -DXXH_INLINE_ALL
        -I"$src/include" -I"$src/harness" -I"$src/reference" -I"$src/targets" -I"$src/fuzz")
lib_sources=("$src"/reference/*.c "$src"/targets/registry.c "$src"/targets/mutants/*.c
             "$src"/targets/variants/*.c)
# Every harness room but report/ and bench/: the fuzz targets write no
# reports and measure nothing, and both rooms need jansson (the writers
# libxml2 too), which the fuzzing image does not build with sanitizers.
for f in "$src"/harness/*/*.c; do
    case $f in */harness/report/* | */harness/bench/*) ;; *) lib_sources+=("$f") ;; esac
done

# The libraries, instrumented as the engine and sanitizer want.
objs=()
for f in "${lib_sources[@]}"; do
    o="$work/lib-$(basename "$(dirname "$f")")-$(basename "$f" .c).o"
    $CC $CFLAGS "${common[@]}" -c "$f" -o "$o"
    objs+=("$o")
done

# A plain host pbcheck, to turn the text seeds into binary seeds; it has
# every room, so it links the report writers' libraries and the report
# templates (cmake/embed.cmake, as the CMake build makes them).
cmake -DINPUTS="$src/reports/template.html|$src/reports/report.css|$src/reports/triage.html" \
      -DNAMES="pbc_report_template_html|pbc_report_template_css|pbc_report_template_triage_html" \
      -DOUTPUT="$work/report_templates.c" -P "$src/cmake/embed.cmake"
$CC -O1 "${common[@]}" -I/usr/include/libxml2 -DPBC_SOURCE_DIR="\"$src\"" "$src"/cli/*.c \
    "${lib_sources[@]}" "$src"/harness/report/*.c "$src"/harness/bench/*.c "$work/report_templates.c" -ljansson -lxml2 -ldw \
    -o "$work/pbcheck"

# libdw and what it needs, linked statically: a fuzzer in the runner image
# finds nothing of the build's packages.
libdw_static="-Wl,-Bstatic -ldw -lelf -lz -lbz2 -llzma -Wl,-Bdynamic -pthread"

# libFuzzer's mutator hooks with their own plain copy of the codec, in one
# object whose only global symbols are the hooks: the mutator is not the
# code under test, and instrumenting it only slows every mutation down
# (fuzz/CMakeLists.txt builds it the same way and says why).
mutator_objs=()
for f in "$src/fuzz/libfuzzer_mutator.c" "$src/fuzz/mutate.c" "$src"/harness/scenario/{scenario,bin,gen,fit}.c \
         "$src/harness/base/util.c" "$src/harness/gpu/layout.c"; do
    o="$work/mutator-$(basename "$f" .c).o"
    $CC -O2 "${common[@]}" -c "$f" -o "$o"
    mutator_objs+=("$o")
done
ld -r -o "$work/mutator-all.o" "${mutator_objs[@]}"
objcopy -G LLVMFuzzerCustomMutator -G LLVMFuzzerCustomCrossOver "$work/mutator-all.o" "$work/mutator.o"

zip_dir() { # zip_dir DIR ZIP: the files of DIR, flat
    rm -f "$2"
    (cd "$1" && zip -q -j "$2" ./*)
}

fuzz_target() { # fuzz_target NAME KIND SEED_DIR SOURCES...
    local name="$1" kind="$2" seeds="$3"
    shift 3
    $CC $CFLAGS "${common[@]}" "$@" "${objs[@]}" $LIB_FUZZING_ENGINE $libdw_static -o "$OUT/$name"
    cp "$src/fuzz/dict/$kind.dict" "$OUT/$name.dict"
    cp "$src/fuzz/options/$kind.options" "$OUT/$name.options"
    zip_dir "$seeds" "$OUT/${name}_seed_corpus.zip"
}

# The seeds, and the regression corpus (pbcheck triage --promote): every
# bug once found stays in the corpus the fuzzers start from.
regressions=("$src"/corpus/regressions/*.pbs)
[ -e "${regressions[0]}" ] || regressions=()
"$work/pbcheck" encode "$src"/corpus/seeds/*.pbs "${regressions[@]}" --out "$work/seeds-binary" >/dev/null
"$work/pbcheck" fuzz --target isa --prepare --out "$work/isa" >/dev/null

# The reference and the legal variants, built in.
for builder in $("$work/pbcheck" list targets | awk '$1 == "reference" || /\[legal variant\]$/ {print $1}'); do
    fuzz_target "fuzz_diff_${builder//-/_}" diff "$work/seeds-binary" \
        -DPBC_FUZZ_TARGET="\"$builder\"" "$src/fuzz/fuzz_diff.c" "$work/mutator.o"
done
# The example builders, as a vendor's would be (pbcheck_add_target): the
# builder's sources linked into the binary, which exports the kernel
# services they call.
for dir in "$src"/targets/examples/example_*/; do
    ex=$(basename "$dir")
    fuzz_target "fuzz_diff_$ex" diff "$work/seeds-binary" -DPBC_FUZZ_TARGET='""' -I"$dir" \
        "$src/fuzz/fuzz_diff.c" "$work/mutator.o" "$dir"*.c \
        -Wl,--dynamic-list="$src/harness/kernel/exports.list"
done
fuzz_target fuzz_parse parse "$src/corpus/seeds" "$src/fuzz/fuzz_parse.c"
fuzz_target fuzz_isa isa "$work/isa/corpus" "$src/fuzz/fuzz_isa.c"
