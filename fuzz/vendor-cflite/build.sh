#!/bin/bash -eu
# ClusterFuzzLite / OSS-Fuzz build of a builder certified with pbcheck
# (pbcheck's docs/ci-fuzzing.md). Copy it to .clusterfuzzlite/build.sh.
# It configures your project (the CMakeLists.txt that calls
# pbcheck_add_target) with the compiler and flags OSS-Fuzz sets ($CC,
# $CFLAGS, $LIB_FUZZING_ENGINE: libFuzzer or AFL++, any sanitizer), builds
# every NAME_fuzzer (the target pbcheck_fuzzers) and copies each to $OUT
# with its .dict, .options and _seed_corpus.zip. The binaries have your
# builder linked in: they need no environment variable.
#   PBCHECK_PREFIX       where pbcheck is installed (the Dockerfile: /opt/pbcheck)
#   PBCHECK_PROJECT_DIR  your CMake project (default: this repository, $SRC/project)
prefix=${PBCHECK_PREFIX:-/opt/pbcheck}
project=${PBCHECK_PROJECT_DIR:-$SRC/project}
build=$WORK/pbcheck-fuzzers
cmake -S "$project" -B "$build" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$CC" \
    -DCMAKE_CXX_COMPILER="$CXX" -DCMAKE_BUILD_TYPE=
cmake --build "$build" --target pbcheck_fuzzers -j"$(nproc)"
n=0
while IFS= read -r -d '' fuzzer; do
    cp "$fuzzer" "$fuzzer.dict" "$fuzzer.options" "${fuzzer}_seed_corpus.zip" "$OUT/"
    n=$((n + 1))
done < <(find "$build" -type f -name '*_fuzzer' -perm -u+x -print0)
[ "$n" -gt 0 ] || { echo "build.sh: no NAME_fuzzer in $build: does $project call pbcheck_add_target?" >&2; exit 1; }
echo "build.sh: $n fuzz binaries in $OUT"
