#!/usr/bin/env bash
# docs/ci-fuzzing.md, step by step, out of pbcheck's tree: a vendor
# repository made from an installed template (share/pbcheck/examples/
# example_cpu, renamed mygpu in its CMakeLists.txt alone), given the
# installed ClusterFuzzLite files, built by the template's build.sh with
# the environment OSS-Fuzz sets (libFuzzer, and AFL++ when installed);
# every binary in $OUT runs with an empty environment and fuzzes briefly,
# needs no library beyond libc, libstdc++ and the sanitizer runtimes (ldd),
# and starts where the build's libraries (libxxhash, libjansson, libxml2)
# are not: a mount namespace whose system library folder holds only libc
# and its kin, as ClusterFuzzLite's runner image has. The page's own
# local check runs as written (60 s cut to 5).
# Usage: ci_fuzzing_test.sh SOURCE_DIR PBCHECK_BINARY_DIR
set -u
src=$1 bin=$2
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
. "$(dirname "$0")/check.sh"
. "$(dirname "$0")/runner_env.sh"

prefix=$tmp/pbcheck
cmake --install "$bin" --prefix "$prefix" >"$tmp/install.log" 2>&1
check install [ $? -eq 0 ] || tail "$tmp/install.log"
share=$prefix/share/pbcheck

# The vendor's repository (docs/ci-fuzzing.md, "1. The builder").
repo=$tmp/src/project
mkdir -p "$repo/pbcheck"
cp "$share"/examples/example_cpu/* "$repo/pbcheck/"
cat >"$repo/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(mygpu_pbcheck C)
find_package(pbcheck 0.1 REQUIRED)
enable_testing()
pbcheck_add_target(mygpu
  SOURCES pbcheck/excpu_ddi.c pbcheck/excpu_isa.c
  INCLUDE_DIRS pbcheck)
CMAKE
# "2. ClusterFuzzLite"
mkdir -p "$repo/.clusterfuzzlite" "$repo/.github/workflows"
cp "$share"/clusterfuzzlite/{Dockerfile,build.sh,project.yaml} "$repo/.clusterfuzzlite/"
cp "$share"/clusterfuzzlite/workflows/*.yml "$repo/.github/workflows/"
check template-files [ -x "$repo/.clusterfuzzlite/build.sh" ] && [ -f "$repo/.github/workflows/cflite_build.yml" ]

# "3. Try the build as ClusterFuzzLite runs it": OSS-Fuzz's variables.
oss_fuzz_build() { # oss_fuzz_build ENGINE
    local engine=$1 base="-O1 -fno-omit-frame-pointer -gline-tables-only -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION"
    local san="-fsanitize=address -fsanitize-address-use-after-scope"
    rm -rf "$tmp/work" "$tmp/out" && mkdir -p "$tmp/work" "$tmp/out"
    (
        export SRC=$tmp/src WORK=$tmp/work OUT=$tmp/out SANITIZER=address FUZZING_ENGINE=$engine
        export ARCHITECTURE=x86_64 FUZZING_LANGUAGE=c LIB_FUZZING_ENGINE=-fsanitize=fuzzer PBCHECK_PREFIX=$prefix
        if [ "$engine" = afl ]; then
            export CC=afl-clang-fast CXX=afl-clang-fast++ CFLAGS="$base $san" CXXFLAGS="$base $san" AFL_QUIET=1
        else
            export CC=clang CXX=clang++ CFLAGS="$base $san -fsanitize=fuzzer-no-link" CXXFLAGS="$base $san -fsanitize=fuzzer-no-link"
        fi
        cd "$repo" && "$SRC/project/.clusterfuzzlite/build.sh"
    ) >"$tmp/build-$engine.log" 2>&1
}
oss_fuzz_build libfuzzer
check build-libfuzzer [ $? -eq 0 ] || tail -30 "$tmp/build-libfuzzer.log"
for f in mygpu_fuzzer mygpu_fuzzer.dict mygpu_fuzzer.options mygpu_fuzzer_seed_corpus.zip; do
    check "libfuzzer-out-$f" [ -f "$tmp/out/$f" ]
done
check libfuzzer-only-the-binary [ "$(ls "$tmp/out" | wc -l)" -eq 4 ]
mkdir -p "$tmp/seeds" && (cd "$tmp/seeds" && unzip -q "$tmp/out/mygpu_fuzzer_seed_corpus.zip")
check seed-corpus [ "$(ls "$tmp/seeds" | wc -l)" -gt 20 ]
# $OUT moved, as the runner moves it, and no environment at all.
mv "$tmp/out" "$tmp/out-lf"
(cd "$tmp" && env -i PATH=/usr/bin:/bin "$tmp/out-lf/mygpu_fuzzer" -max_total_time=5 -dict="$tmp/out-lf/mygpu_fuzzer.dict" \
    "$tmp/seeds" >"$tmp/fuzz-lf.log" 2>&1)
check libfuzzer-fuzzes-clean [ $? -eq 0 ] || tail -20 "$tmp/fuzz-lf.log"
check libfuzzer-ran grep -q '^Done [0-9]* runs' "$tmp/fuzz-lf.log"
# What the runner image lacks: nothing.
check libfuzzer-needs-no-build-library [ -z "$(runner_libs "$tmp/out-lf/mygpu_fuzzer")" ] ||
    runner_libs "$tmp/out-lf/mygpu_fuzzer"
runner_run "$tmp/out-lf/mygpu_fuzzer" -runs=50 "$tmp/seeds" >"$tmp/runner-lf.log" 2>&1
rc=$?
[ $rc -eq 125 ] && echo "note: no mount namespace here (unshare -rm): the runner start is not tried"
check libfuzzer-starts-in-runner [ $rc -eq 0 ] || tail -5 "$tmp/runner-lf.log"
check libfuzzer-runs-in-runner grep -q '^Done [0-9]* runs' "$tmp/runner-lf.log"
# docs/ci-fuzzing.md, "3. Try the build as ClusterFuzzLite runs it": its
# local check, from the repository, on the seed corpus the build made.
mkdir -p "$tmp/out"
cp "$tmp"/out-lf/* "$tmp/out/"
(
    cd "$repo" || exit 1
    # The section's last sh block, its paths under $tmp, 60 s cut to 5.
    sed -n '/^## 3\. Try the build/,/^## What/p' "$src/docs/ci-fuzzing.md" |
        awk '/^```sh$/ {n++; block = ""; on = 1; next} /^```$/ {on = 0; last = block} on {block = block $0 "\n"}
             END {printf "%s", last}' |
        sed -e "s|/tmp/out|$tmp/out|g" -e "s|/tmp/corpus|$tmp/doc-corpus|g" \
            -e 's|-max_total_time=60|-max_total_time=5|' >"$tmp/doc-check.sh"
    [ -s "$tmp/doc-check.sh" ] || exit 1
    bash -e "$tmp/doc-check.sh"
) >"$tmp/doc-check.log" 2>&1
check doc-local-check-runs [ $? -eq 0 ] || { cat "$tmp/doc-check.sh"; tail -20 "$tmp/doc-check.log"; }
check doc-local-check-fuzzed grep -q '^Done [0-9]* runs' "$tmp/doc-check.log"
rm -rf "$tmp/out"

if command -v afl-clang-fast >/dev/null; then
    oss_fuzz_build afl
    check build-afl [ $? -eq 0 ] || tail -30 "$tmp/build-afl.log"
    check afl-out [ -x "$tmp/out/mygpu_fuzzer" ]
    (cd "$tmp" && env -i PATH=/usr/bin:/bin "$tmp/out/mygpu_fuzzer" "$tmp"/seeds/* >"$tmp/run-afl.log" 2>&1)
    check afl-runs-seeds [ $? -eq 0 ] || tail -20 "$tmp/run-afl.log"
    check afl-ran grep -q '^Execution successful' "$tmp/run-afl.log"
    check afl-needs-no-build-library [ -z "$(runner_libs "$tmp/out/mygpu_fuzzer")" ] || runner_libs "$tmp/out/mygpu_fuzzer"
    runner_run "$tmp/out/mygpu_fuzzer" "$tmp"/seeds/* >"$tmp/runner-afl.log" 2>&1
    check afl-starts-in-runner grep -q '^Execution successful' "$tmp/runner-afl.log" || tail -5 "$tmp/runner-afl.log"
    # A short afl-fuzz campaign on it, from the eight smallest seeds (the
    # dry run of all of them can take a minute on a loaded machine).
    mkdir -p "$tmp/afl-in"
    ls -S "$tmp/seeds" | tail -8 | while read -r f; do cp "$tmp/seeds/$f" "$tmp/afl-in/"; done
    ASAN_OPTIONS=abort_on_error=1:symbolize=0:detect_leaks=0 \
    AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_NO_AFFINITY=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_FAST_CAL=1 timeout 120 \
        afl-fuzz -i "$tmp/afl-in" -o "$tmp/afl" -t 10000+ -V 5 -- "$tmp/out/mygpu_fuzzer" >"$tmp/afl.log" 2>&1
    check afl-fuzzes [ -f "$tmp/afl/default/fuzzer_stats" ]
    [ -f "$tmp/afl/default/fuzzer_stats" ] || tail -20 "$tmp/afl.log"
    check afl-no-crash [ "$(ls "$tmp/afl/default/crashes" 2>/dev/null | grep -vc README)" -eq 0 ]
fi
finish
