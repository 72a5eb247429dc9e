#!/usr/bin/env bash
# The CMake package: installs pbcheck to a temporary prefix, builds
# tests/package/ (the three example builders through find_package(pbcheck)
# and pbcheck_add_target, one of them with a wrong-case include, one with
# a source that needs INCLUDE_DIRS, COMPILE_DEFINITIONS, COMPILE_OPTIONS
# and an option set later in every build of it) and runs its CTest: each
# certify_NAME test must certify its example CONFORMANT. Then what a run
# leaves (schemas, replay commands that work from any folder), certify
# --coverage, fuzz --engine afl's numbers and a GCC configure that says
# what it cannot build.
# Usage: package_test.sh SOURCE_DIR PBCHECK_BINARY_DIR C_COMPILER
set -u
src=$1 bin=$2 cc=$3
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
. "$(dirname "$0")/check.sh"
. "$(dirname "$0")/runner_env.sh"

cmake --install "$bin" --prefix "$tmp/prefix" >"$tmp/install.log" 2>&1
check install [ $? -eq 0 ]
check installed-config [ -f "$tmp/prefix/lib/cmake/pbcheck/pbcheckConfig.cmake" ]
check installed-version [ -f "$tmp/prefix/lib/cmake/pbcheck/pbcheckConfigVersion.cmake" ]
check installed-headers [ -f "$tmp/prefix/include/pbcheck/target.h" ]
# The schemas of report.json and triage.json, for a vendor's CI.
for schema in report triage; do
    check "installed-$schema-schema" cmp -s "$src/docs/$schema.schema.json" \
        "$tmp/prefix/share/pbcheck/schemas/$schema.schema.json"
done
cmake -S "$src/tests/package" -B "$tmp/build" -DCMAKE_PREFIX_PATH="$tmp/prefix" \
    -DEXAMPLES_DIR="$src/targets/examples" -DCMAKE_C_COMPILER="$cc" -DPBCHECK_AFL="$(command -v afl-clang-fast >/dev/null && echo ON || echo OFF)" \
    >"$tmp/configure.log" 2>&1
check configure [ $? -eq 0 ] || cat "$tmp/configure.log"
cmake --build "$tmp/build" -j1 >"$tmp/build.log" 2>&1
check build [ $? -eq 0 ] || tail -30 "$tmp/build.log"
check case-forwarder [ -f "$tmp/build/example_gpu_case_includes/EXGPU_HW.H" ]
check case-forwarder-wdk [ -f "$tmp/build/example_gpu_case_includes/Dispmprt.h" ]
for ex in example_gpu example_cpu example_worker; do
    lib=$tmp/build/lib$ex.so
    check "$ex-built" [ -f "$lib" ]
    check "$ex-exports-one-symbol" [ "$(nm -D --defined-only "$lib" 2>/dev/null | awk '$2 ~ /[TDR]/ { print $3 }')" = pbc_target_get ]
done
ctest --test-dir "$tmp/build" -V -LE fuzz >"$tmp/ctest.log" 2>&1
# With clang each builder gets NAME_fuzzer, the builder linked in: it runs
# with no environment at all, from its seed corpus, and its fuzz_NAME test
# passes; pbcheck encode lays the installed seeds onto the adapter.
check fuzz-tests-registered [ "$(ctest --test-dir "$tmp/build" -N -R '^fuzz_' | grep -c 'Test *#')" -eq 3 ]
ctest --test-dir "$tmp/build" -V -R '^fuzz_example_cpu$' >"$tmp/fuzz.log" 2>&1
check fuzz-test-passes [ $? -eq 0 ] || tail -30 "$tmp/fuzz.log"
for ex in example_gpu example_cpu example_worker; do
    check "$ex-fuzzer-seeds" [ "$(unzip -l "$tmp/build/${ex}_fuzzer_seed_corpus.zip" | grep -c '\.bin$')" -gt 20 ]
    (cd "$tmp" && env -i PATH=/usr/bin:/bin "$tmp/build/${ex}_fuzzer" -runs=30 "$tmp/build/${ex}_fuzzer_seeds" \
        >"$tmp/$ex-fuzzer.log" 2>&1)
    check "$ex-fuzzer-runs-without-environment" grep -q '^Done [0-9]* runs' "$tmp/$ex-fuzzer.log" ||
        tail -20 "$tmp/$ex-fuzzer.log"
done
check fuzzer-has-builder-linked-in bash -c "nm '$tmp/build/example_cpu_fuzzer' | grep -q ' T pbc_target_get$'"
# The fuzz binaries start where the build's libraries are not.
for f in example_cpu_fuzzer example_cpu_afl_fuzz; do
    [ -x "$tmp/build/$f" ] || continue
    check "$f-needs-no-build-library" [ -z "$(runner_libs "$tmp/build/$f")" ] || runner_libs "$tmp/build/$f"
    runner_run "$tmp/build/$f" "$tmp/build/example_cpu_fuzzer_seeds/$(ls "$tmp/build/example_cpu_fuzzer_seeds" | head -1)" \
        >"$tmp/$f-runner.log" 2>&1
    rc=$?
    [ $rc -eq 125 ] && echo "note: no mount namespace here (unshare -rm): the runner start is not tried"
    check "$f-starts-in-runner" [ $rc -eq 0 ] || tail -5 "$tmp/$f-runner.log"
done
# pbcheck fuzz --target libNAME.so takes the builder's own binary.
"$tmp/prefix/bin/pbcheck" fuzz --target "$tmp/build/libexample_cpu.so" --runs 50 --out "$tmp/fz" >"$tmp/fz.log" 2>&1
check fuzz-verb-uses-own-binary grep -q "(${tmp}/build/example_cpu_fuzzer)" "$tmp/fz.log" || cat "$tmp/fz.log"
# The installed seeds, run on a builder that declares its adapter, under
# the name given to pbcheck_add_target.
"$tmp/prefix/bin/pbcheck" run --target "$tmp/build/libexample_worker.so" >"$tmp/run.log" 2>&1
check run-installed-seeds [ $? -eq 0 ] || tail -20 "$tmp/run.log"
check run-says-seeds grep -q "run: the seed corpus, $tmp/prefix/share/pbcheck/seeds" "$tmp/run.log"
check run-passes-seeds grep -Eq '^run: [1-9][0-9]* passed, 0 failed' "$tmp/run.log"
check target-renamed-in-one-place grep -q "target 'example_worker'" "$tmp/run.log"
# With AFL++ installed, each builder also gets an instrumented library and
# an AFL++ fuzz binary; one runs an input, and afl-showmap sees edges of
# the builder's own code (the harness in the kit is not instrumented).
if command -v afl-clang-fast >/dev/null; then
    ctest --test-dir "$tmp/build" -V -R '^afl_example_cpu$' >"$tmp/afl.log" 2>&1
    check afl-test-passes [ $? -eq 0 ] || tail -30 "$tmp/afl.log"
    check afl-binary-built [ -x "$tmp/build/example_cpu_afl_fuzz" ]
    # The same driver path with and without work for the builder: only
    # the builder's instrumented code (linked in) can tell the two maps apart.
    "$tmp/prefix/bin/pbcheck" encode "$src/corpus/seeds/everything.pbs" --out "$tmp/afl-in" >/dev/null
    : >"$tmp/afl-in/empty.bin"
    edges() { # edges INPUT: tuples afl-showmap sees for one input on stdin
        ASAN_OPTIONS=detect_leaks=0 afl-showmap -q -o "$tmp/map" -m none -- "$tmp/build/example_cpu_afl_fuzz" <"$1" \
            >/dev/null 2>&1
        wc -l <"$tmp/map" 2>/dev/null || echo 0
    }
    busy=$(edges "$tmp/afl-in/everything.bin") idle=$(edges "$tmp/afl-in/empty.bin")
    check afl-sees-builder-edges [ "$busy" -gt $((idle + 10)) ]
fi
for ex in example_gpu example_cpu example_worker; do
    # The certify output of this test, from its start to the next test's.
    awk -v ex="$ex" '/Test command:/ { on = index($0, "/lib" ex ".so") > 0 } on' "$tmp/ctest.log" >"$tmp/$ex.log"
    check "$ex-certify-ran" grep -q "verdict: " "$tmp/$ex.log"
    check "$ex-conformant" grep -q "verdict: CONFORMANT" "$tmp/$ex.log"
done

# Coverage of the builder's code: certify --coverage runs libNAME_cov.so and
# reports line and branch coverage of its sources; the size check of
# ExCpuWritePhysical (a buffer too small for its packet) is reached only by
# random cases: covered after --time, not without it.
check cov-library-built [ -f "$tmp/build/libexample_cpu_cov.so" ]
line=$(grep -n 'if (Args->DmaSize < EXCPU_LEN_SOLID \* 4)' "$src/targets/examples/example_cpu/excpu_ddi.c" | cut -d: -f1)
covered() { # covered RUN_DIR: the true count of that branch in llvm-cov's export
    python3 - "$1/coverage/export.json" "$line" <<'PY'
import json, sys
e = json.load(open(sys.argv[1]))
for f in e["data"][0]["functions"]:
    if f["name"].endswith("ExCpuWritePhysical"):
        print(sum(b[4] for b in f["branches"] if b[0] == int(sys.argv[2])))
PY
}
# The random run's suite is narrowed to one group (--cases): the quick
# run has shown the whole suite leaves the branch alone, so what covers it
# then is the random phase. A narrowed suite is INCOMPLETE (exit 1).
for name in quick random; do
    args=(--quick) want=0
    [ "$name" = random ] && args=(--quick --cases 'discard/*' --time 15) want=1
    "$tmp/prefix/bin/pbcheck" certify --target "$tmp/build/libexample_cpu.so" "${args[@]}" --coverage --out "$tmp/cov-$name" \
        --run-id r >"$tmp/cov-$name.log" 2>&1
    check "coverage-$name-certifies" [ $? -eq "$want" ] || tail -20 "$tmp/cov-$name.log"
    check "coverage-$name-no-failure" grep -Eq '^certify .*: [1-9][0-9]* passed, 0 failed, [0-9]* skipped, 0 harness bugs$' \
        "$tmp/cov-$name.log"
    check "coverage-$name-says" grep -q '^coverage: lines [0-9.]*%, branches [0-9.]*%' "$tmp/cov-$name.log"
    check "coverage-$name-html" [ -f "$tmp/cov-$name/r/coverage/html/index.html" ]
    check "coverage-$name-report-json" python3 -c "
import json, sys
c = json.load(open('$tmp/cov-$name/r/report.json'))['coverage']
files = sorted(f['file'].rsplit('/', 1)[-1] for f in c['files'])
assert files == ['excpu_ddi.c', 'excpu_hw.h', 'excpu_isa.c'], files
assert c['lines']['covered'] > 0 and c['branches']['count'] > 0
assert all(b['function'].startswith('ExCpu') for b in c['uncovered_entry_branches'])"
    check "coverage-$name-summary" grep -q "^| excpu_ddi.c | [0-9]*/[0-9]* " "$tmp/cov-$name/r/summary.md"
    check "coverage-$name-linked" grep -q 'href="coverage/html/index.html"' "$tmp/cov-$name/r/index.html"
    # The verdict and the fingerprint are the shipped library's; the
    # coverage section is inside the page, before its footer.
    check "coverage-$name-certifies-shipped-library" python3 -c "
import json, sys
b = json.load(open('$tmp/cov-$name/r/report.json'))['provenance']['target_binary']
sys.exit(0 if b['path'].endswith('/libexample_cpu.so') else b['path'])"
    check "coverage-$name-before-footer" python3 -c "
import sys
page = open('$tmp/cov-$name/r/index.html').read()
sys.exit(0 if 0 <= page.find('id=\"coverage\"') < page.find('<footer') else 1)"
done
check random-branch-uncovered-without-time [ "$(covered "$tmp/cov-quick/r")" = 0 ]
check random-branch-covered-with-time [ "$(covered "$tmp/cov-random/r")" -gt 0 ]
# fuzz --coverage: the corpus through the coverage build.
"$tmp/prefix/bin/pbcheck" fuzz --target "$tmp/build/libexample_cpu.so" --runs 300 --coverage --out "$tmp/fzc" \
    >"$tmp/fzc.log" 2>&1
check fuzz-coverage grep -q '^coverage: lines' "$tmp/fzc.log" || tail "$tmp/fzc.log"
check fuzz-coverage-json [ -f "$tmp/fzc/coverage/coverage.json" ]

# pbcheck fuzz --engine afl: --time 20 ends near 20 s; the rate is AFL++'s
# execs_done over run_time from fuzzer_stats, the corpus its queue.
if [ -x "$tmp/build/example_cpu_afl_fuzz" ]; then
    mkdir -p "$tmp/afl-seeds"
    cp "$tmp/prefix/share/pbcheck/seeds/"{fill-basic,transfer-basic,map-access-unmap-dummy}.pbs "$tmp/afl-seeds/" 2>/dev/null
    start=$(date +%s)
    "$tmp/prefix/bin/pbcheck" fuzz --target "$tmp/build/libexample_cpu.so" --engine afl --time 20 \
        --seeds "$tmp/afl-seeds" --out "$tmp/afl-fz" >"$tmp/afl-fz.log" 2>&1
    took=$(($(date +%s) - start))
    check afl-fuzz-runs grep -q '^fuzz: [0-9]* new finding' "$tmp/afl-fz.log" || tail -20 "$tmp/afl-fz.log"
    check afl-fuzz-stops-near-time [ "$took" -le 35 ] || echo "took $took s"
    stats=$tmp/afl-fz/afl/main/fuzzer_stats
    check afl-fuzz-rate-from-stats python3 - "$stats" "$tmp/afl-fz.log" <<'PY'
import re, sys
stats = dict(l.split(":", 1) for l in open(sys.argv[1]) if ":" in l)
stats = {k.strip(): v.strip() for k, v in stats.items()}
log = open(sys.argv[2]).read()
m = re.search(r"^afl: (\d+) execs in (\d+) s, ([0-9.]+) execs/s", log, re.M)
execs, secs = int(stats["execs_done"]), int(stats["run_time"])
ok = m and int(m.group(1)) == execs and int(m.group(2)) == secs and secs > 0 and \
     abs(float(m.group(3)) - execs / secs) < 0.1
sys.exit(0 if ok else "log says %s; fuzzer_stats %d execs in %d s" % (m and m.group(0), execs, secs))
PY
    queue=$(find "$tmp/afl-fz/afl/main/queue" -maxdepth 1 -type f | wc -l)
    check afl-fuzz-corpus-is-queue grep -q "^fuzz: [0-9]* new findings\?; corpus now $queue inputs" "$tmp/afl-fz.log" ||
        grep 'corpus now' "$tmp/afl-fz.log"
fi

# What a run leaves: replay commands that work from any folder. certify
# from one folder, with relative paths, then each replay command from
# another: the same failure.
bug=$bin/targets/examples/libexample_worker_bug_transfer_offset.so
mkdir -p "$tmp/here/lib" "$tmp/elsewhere"
cp "$bug" "$tmp/here/lib/"
(cd "$tmp/here" && "$tmp/prefix/bin/pbcheck" certify --target lib/$(basename "$bug") --quick \
    --cases 'transfer-seg-to-seg/*' --out reports --run-id r >certify.log 2>&1)
check replay-certify-fails [ $? -eq 1 ] || tail "$tmp/here/certify.log"
replay=$(python3 -c "
import json, sys
cases = [c for c in json.load(open('$tmp/here/reports/r/report.json'))['results'] if c.get('replay')]
print(cases[0]['replay'])")
check replay-in-summary grep -qF -- "$replay" "$tmp/here/reports/r/summary.md"
(cd "$tmp/elsewhere" && eval "$replay" >replay.log 2>&1)
check replay-from-elsewhere-fails-alike [ $? -eq 1 ] || { echo "$replay"; tail -5 "$tmp/elsewhere/replay.log"; }
check replay-from-elsewhere-diverges grep -q '^FAIL .*PB-DIVERGE$' "$tmp/elsewhere/replay.log"

# Loud toolchains: GCC builds the library but no fuzzer and no coverage
# build, and configure says so, naming the fix; with no build type the
# library still has line tables.
cmake -S "$src/tests/package/missing_symbol" -B "$tmp/gcc" -DCMAKE_PREFIX_PATH="$tmp/prefix" \
    -DCMAKE_C_COMPILER=gcc >"$tmp/gcc-configure.log" 2>&1
check gcc-configures [ $? -eq 0 ] || tail "$tmp/gcc-configure.log"
tr -s ' \n' '  ' <"$tmp/gcc-configure.log" >"$tmp/gcc-configure.flat" # CMake wraps its warnings
check gcc-says-no-fuzzer grep -q 'so NAME_fuzzer (docs/ci-fuzzing.md) and libNAME_cov.so (certify --coverage) will not be built' \
    "$tmp/gcc-configure.flat"
check gcc-names-the-fix grep -q 'configure with -DCMAKE_C_COMPILER=clang (Debian: apt-get install clang libclang-rt-14-dev)' \
    "$tmp/gcc-configure.flat"
check gcc-warns-once [ "$(grep -c 'CMake Warning' "$tmp/gcc-configure.log")" -eq 1 ]
check no-build-type-says-g grep -q 'no CMAKE_BUILD_TYPE, so libglue_ok.so is compiled with -g' "$tmp/gcc-configure.log"
cmake --build "$tmp/gcc" --target glue_ok >"$tmp/gcc-build.log" 2>&1
check gcc-builds-library [ -f "$tmp/gcc/libglue_ok.so" ] || tail "$tmp/gcc-build.log"
check no-build-type-line-tables bash -c "readelf -S '$tmp/gcc/libglue_ok.so' | grep -q '\.debug_line'"
check clang-no-warning bash -c "! grep -q 'CMake Warning' '$tmp/configure.log'"

# docs/writing-a-target.md, "From driver source to a certified builder", as
# written: steps 2 and 3 (step 1 is this test's install) with the page's
# CMakeLists.txt, from a home whose ~/pbcheck is the installed package.
home=$tmp/home
mkdir -p "$home/work" && ln -s "$tmp/prefix" "$home/pbcheck"
section() { sed -n '/^## From driver source/,/^## Headers/p' "$src/docs/writing-a-target.md"; }
section | awk '/^```cmake$/ {on = 1; next} /^```$/ {on = 0} on' >"$home/work/CMakeLists.txt"
section | awk '/^```sh$/ {on = 1; next} /^```$/ {on = 0} on' | sed -n '/^# 2\./,$p' |
    awk '{print} /^mkdir -p mydriver/ {print "cp CMakeLists.txt mydriver/"}' |
    # The page's certify as written but --quick: the default's 75,000 random
    # cases take many minutes in this sanitizer build (certify_test covers them).
    sed 's|^\(~/pbcheck/bin/pbcheck certify --target mydriver/build/libmygpu.so\)|\1 --quick|' >"$tmp/doc-steps.sh"
check doc-steps-found grep -q 'pbcheck certify --target mydriver/build/libmygpu.so' "$tmp/doc-steps.sh"
(cd "$home/work" && HOME=$home bash -ex "$tmp/doc-steps.sh") >"$tmp/doc-steps.log" 2>&1
check doc-steps-run [ $? -eq 0 ] || tail -30 "$tmp/doc-steps.log"
check doc-steps-fuzzer-built [ -x "$home/work/mydriver/build/mygpu_fuzzer" ]
check doc-steps-certified grep -q '^verdict: CONFORMANT (reports in reports/mygpu/' "$tmp/doc-steps.log"
check doc-steps-report-line grep -Eq '^report: reports/mygpu/[0-9TZ-]+/index.html$' "$tmp/doc-steps.log"
check doc-steps-latest [ -f "$home/work/reports/mygpu/latest/index.html" ]

# Link-time truth: a library that needs a symbol neither it nor pbcheck's
# kernel services define fails to build, naming it, and leaves no library;
# the same glue without that call builds.
cmake -S "$src/tests/package/missing_symbol" -B "$tmp/missing" -DCMAKE_PREFIX_PATH="$tmp/prefix" \
    -DCMAKE_C_COMPILER="$cc" >"$tmp/missing-configure.log" 2>&1
check missing-configure [ $? -eq 0 ] || cat "$tmp/missing-configure.log"
cmake --build "$tmp/missing" --target glue_ok >"$tmp/glue-ok.log" 2>&1
check link-check-passes-served-calls [ $? -eq 0 ] || tail -20 "$tmp/glue-ok.log"
check link-check-keeps-good-library [ -f "$tmp/missing/libglue_ok.so" ]
cmake --build "$tmp/missing" --target glue_missing >"$tmp/glue-missing.log" 2>&1
check link-check-fails-missing-symbol [ $? -ne 0 ]
check link-check-names-symbol grep -q "define: KeFooBar" "$tmp/glue-missing.log" || tail -20 "$tmp/glue-missing.log"
check link-check-removes-library [ ! -f "$tmp/missing/libglue_missing.so" ]

finish
