#!/usr/bin/env bash
# Who wrote the first wrong byte (docs/triage.md, "Who wrote it"), as a
# vendor meets it: pbcheck installed to a temporary prefix, and a vendor
# repository out of pbcheck's tree holding copies of the installed
# templates (share/pbcheck/examples), each with a one-line planted bug,
# built by its own CMake project through find_package(pbcheck) and
# pbcheck_add_target (RelWithDebInfo: -g), as docs/writing-a-target.md
# tells. For the copies of example_cpu, example_gpu and example_worker:
# the finding of `pbcheck run` names the planted line; short real
# libFuzzer and AFL++ campaigns of the copy's own fuzz binaries
# (docs/ci-fuzzing.md) find the bug, and triage of what they leave gives
# one root cause, at the planted line, where triage.sarif (relative to
# --source-root) puts every result. For the CPU and the packet copy,
# certify's report.json, summary.md, junit.xml, index.html and
# report.sarif name the line too, and its groups roll up to one root
# cause there (for the worker copy too: its finding is attributed in the
# CPU work of SubmitCommand). An
# abort() ending a function is named in that function; mutant-unmap-zero's
# seeds triage to one root cause. With the builder in a driver process
# (PBCHECK_SPLIT=1) each copy's `run` finding is the same, the planted
# line named from the library file by the judge. Both SARIF files validate against SARIF
# 2.1.0 (PBC_SARIF_SCHEMA, as report_test.sh finds it).
# Usage: lastwriter_test.sh SOURCE_DIR PBCHECK_BINARY_DIR C_COMPILER
set -u
src=$(realpath "$1") bin=$(realpath "$2") cc=$3
sarif_schema=${PBC_SARIF_SCHEMA:-/usr/local/share/pbcheck/sarif-schema-2.1.0.json}
# A divergence's finding in one line: its wrong bytes, then who wrote them.
bytes='[^ ]+ should be( [0-9a-f]{2})+ \.\.\., is( [0-9a-f]{2})+ \.\.\.; '
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
. "$(dirname "$0")/check.sh"

prefix=$tmp/prefix
cmake --install "$bin" --prefix "$prefix" >"$tmp/install.log" 2>&1
check install [ $? -eq 0 ] || tail "$tmp/install.log"
pbcheck=$prefix/bin/pbcheck
# The vendor's repository (certify's and triage's --source-root) and its
# build folder.
vendor=$tmp/vendor build=$tmp/build
mkdir -p "$vendor"
cat >"$vendor/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(planted_pbcheck C)
find_package(pbcheck 0.1 REQUIRED)
enable_testing()
CMAKE

# plant NAME EXAMPLE FILE 'LINE TEXT' 'REPLACEMENT': a copy of the
# installed template in the repository's folder NAME with one line
# changed, made libNAME.so by pbcheck_add_target; prints the changed
# line's number.
plant() {
    local name=$1 example=$2 file=$3 from=$4 to=$5
    mkdir -p "$vendor/$name"
    cp "$prefix/share/pbcheck/examples/$example"/* "$vendor/$name/"
    local line
    line=$(grep -nF -- "$from" "$vendor/$name/$file" | cut -d: -f1)
    [ "$(echo "$line" | wc -w)" -eq 1 ] || { echo "plant $name: '$from' is not one line of $file" >&2; return 1; }
    sed -i "${line}s|.*|$to|" "$vendor/$name/$file"
    add_target "$name"
    echo "$line"
}
add_target() { # NAME: the folder NAME of the repository as libNAME.so
    echo "pbcheck_add_target($1 SOURCES $(cd "$vendor" && echo "$1"/*.c) INCLUDE_DIRS $1)" >>"$vendor/CMakeLists.txt"
}

# A CPU copy that stops a byte short: the last byte is never written, and
# the finding names the builder's last store into its page.
short=$(plant cpu_short example_cpu excpu_ddi.c '    RtlCopyMemory(dst, src, Size);' \
    '    RtlCopyMemory(dst, src, Size - 1);')
check cpu-short-planted [ -n "$short" ]
# A CPU copy that zeroes instead: the store wrote the wrong bytes.
zero=$(plant cpu_zero example_cpu excpu_ddi.c '    RtlCopyMemory(dst, src, Size);' '    RtlZeroMemory(dst, Size);')
check cpu-zero-planted [ -n "$zero" ]
# A packet builder whose copies read one byte too far on (and whose
# fills are a byte too long): the store of the packet's field, through
# its inline chain.
gpu=$(plant gpu_q2 example_gpu exgpu_ddi.c '        exgpu_wr64(W->Cur + 16, Q2);' \
    '        exgpu_wr64(W->Cur + 16, Q2 + 1);')
check gpu-planted [ -n "$gpu" ]
# A worker builder whose CPU work copies from a byte further on.
wk=$(plant wk_src example_worker exwk_ddi.c '        RtlMoveMemory(d, s, Size);' '        RtlMoveMemory(d, s + 1, Size);')
check worker-planted [ -n "$wk" ]
# A crash: abort() as the last call of ExGpuBuildPagingBuffer. Its
# return address is the first byte of the function after it (ExGpuPatch):
# the frame is named by the call, the byte before.
mkdir -p "$vendor/gpu_abort"
cp "$prefix/share/pbcheck/examples/example_gpu"/* "$vendor/gpu_abort/"
python3 - "$vendor/gpu_abort/exgpu_ddi.c" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
s = s.replace("        return STATUS_SUCCESS; /* no caches to drop */", "        break;", 1)
s = s.replace("""        return STATUS_SUCCESS; /* not declared in supported_operations */
    }
}""", """        return STATUS_SUCCESS; /* not declared in supported_operations */
    }
    abort();
}""", 1)
open(p, "w").write("#include <stdlib.h>\n" + s)
PY
abort_line=$(grep -n '^    abort();$' "$vendor/gpu_abort/exgpu_ddi.c" | cut -d: -f1)
add_target gpu_abort

cmake -S "$vendor" -B "$build" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    >"$tmp/configure.log" 2>&1
check configure [ $? -eq 0 ] || tail -20 "$tmp/configure.log"
afl=$(command -v afl-clang-fast >/dev/null && command -v afl-fuzz >/dev/null && echo 1)
[ -n "$afl" ] || echo "note: no AFL++ (afl-clang-fast, afl-fuzz): its campaigns are not run"

cmake --build "$build" -j2 --target cpu_short cpu_zero gpu_q2 wk_src gpu_abort >"$tmp/build.log" 2>&1
check built [ $? -eq 0 ] || tail -30 "$tmp/build.log"

# certify --quick of the three copies, from the repository (the worker
# copy's longest case, a 4 GiB fill by its worker thread, is a fault per
# 32 pages: harness/kernel/shim.c, shim_open_ahead).
certify() { # NAME
    (cd "$vendor" && "$pbcheck" certify --target "$build/lib$1.so" --quick --source-root "$vendor" \
        --out "$tmp/cert-$1" >"$tmp/cert-$1.out" 2>&1)
}
# mutant-unmap-zero points unmapped aperture pages at page 0: its seeds
# fail as PB-UNMAP-DUMMY (the entry after the unmap) and PB-GPU-FAULT (an
# access through the entry), one bug; triaged here, judged below.
triage_unmap() {
    "$pbcheck" triage "$prefix/share/pbcheck/seeds" --target mutant-unmap-zero --out "$tmp/tri-unmap" \
        >"$tmp/tri-unmap.out" 2>&1
}
# Beside the runs and the build of the fuzz binaries (two cores).
(certify cpu_zero; certify gpu_q2; certify wk_src; triage_unmap) &
background=$!

# pbcheck run: each copy's finding names its planted line.
run_seed() { # NAME SEED: the copy's run of one seed into $tmp/NAME.out
    "$pbcheck" run "$prefix/share/pbcheck/seeds/$2.pbs" --target "$build/lib$1.so" >"$tmp/$1.out" 2>&1
}
run_seed cpu_short busy-retry
check short-fails grep -q '^FAIL .*PB-DIVERGE' "$tmp/cpu_short.out"
check short-names-line grep -Eq "never written by the builder; its last store into the page was ExCpuCopyEviction at $vendor/cpu_short/excpu_ddi.c:$short, inlined into ExCpuTransfer at [^ ]*:[0-9]+ during BuildPagingBuffer call [0-9]+ \(Transfer, MultipassOffset 0\)" "$tmp/cpu_short.out" ||
    cat "$tmp/cpu_short.out"
run_seed cpu_zero busy-retry
check zero-names-line grep -Eq "^  ${bytes}written by ExCpuCopyEviction at $vendor/cpu_zero/excpu_ddi.c:$zero, inlined into ExCpuTransfer" \
    "$tmp/cpu_zero.out" || cat "$tmp/cpu_zero.out"
run_seed gpu_q2 busy-retry
check gpu-names-line grep -Eq "^  ${bytes}written by packet [0-9]+ of paging buffer [0-9]+ \(copy at \+0x[0-9a-f]+\), whose source was stored by exgpu_wr64 at [^ ]*exgpu_hw.h:[0-9]+, inlined into ExGpuEmit at $vendor/gpu_q2/exgpu_ddi.c:$gpu, inlined into ExGpuCopy" \
    "$tmp/gpu_q2.out" || cat "$tmp/gpu_q2.out"
run_seed wk_src busy-retry
check worker-names-line grep -Eq "^  ${bytes}written by ExWkCopy at $vendor/wk_src/exwk_ddi.c:$wk in CPU work queued at SubmitCommand \(for operation 2\)" \
    "$tmp/wk_src.out" || cat "$tmp/wk_src.out"
# The same findings with the builder in a driver process (PBCHECK_SPLIT=1,
# harness/ddi/): its stores are watched and single-stepped there, and the
# judge names them from the library file. Every finding line is the
# in-process run's, the planted file:line among them.
split_names_line() { # NAME FILE LINE: the copy's seed has run in process into $tmp/NAME.out
    local name=$1 where="$vendor/$1/$2:$3"
    PBCHECK_SPLIT=1 "$pbcheck" run "$prefix/share/pbcheck/seeds/busy-retry.pbs" --target "$build/lib$name.so" \
        >"$tmp/$name-split.out" 2>&1
    grep -qF "$where" "$tmp/$name.out" && grep -qF "$where" "$tmp/$name-split.out" &&
        cmp -s <(grep '^  ' "$tmp/$name.out") <(grep '^  ' "$tmp/$name-split.out") ||
        { diff <(grep '^  ' "$tmp/$name.out") <(grep '^  ' "$tmp/$name-split.out"); return 1; }
}
check split-short-names-line split_names_line cpu_short excpu_ddi.c "$short"
check split-zero-names-line split_names_line cpu_zero excpu_ddi.c "$zero"
check split-gpu-names-line split_names_line gpu_q2 exgpu_ddi.c "$gpu"
check split-worker-names-line split_names_line wk_src exwk_ddi.c "$wk"
run_seed gpu_abort busy-discard
check abort-in-its-function grep -Eq "^  crash: SIGABRT \(signal 6\) in ExGpuBuildPagingBuffer at $vendor/gpu_abort/exgpu_ddi.c:$abort_line " \
    "$tmp/gpu_abort.out" || cat "$tmp/gpu_abort.out"

# certify: every reproducer's writer and location is the planted line,
# report.sarif puts its results there relative to the source root,
# summary.md carries the finding and the writer, and every group rolls up
# to one root cause.
certify_names() { # NAME FILE LINE: certify has run
    local name=$1 file=$2 line=$3
    grep -q 'verdict: NOT CONFORMANT' "$tmp/cert-$name.out" || { tail "$tmp/cert-$name.out"; return 1; }
    python3 - "$tmp/cert-$name/latest" "$file:$line" "$name/$file" "$line" "$sarif_schema" <<'PY'
import json, os, re, sys
run, where, uri, line, schema = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
report = json.load(open(os.path.join(run, "report.json")))
writers = [r for r in report["results"] if "last_writer" in r]
bad = [r["name"] for r in writers if where not in r["last_writer"] or not r["location"].endswith(where)]
sarif = json.load(open(os.path.join(run, "report.sarif")))["runs"][0]
at = [l["physicalLocation"] for res in sarif["results"] for l in res.get("locations", [])]
here = [p for p in at if p["artifactLocation"].get("uri") == uri and p["artifactLocation"].get("uriBaseId") == "SRCROOT"
        and p.get("region", {}).get("startLine") == line]
summary = open(os.path.join(run, "summary.md")).read()
roots = report["root_causes"]
# The one-line finding (wrong bytes, writer, its line) in every report
# a person reads: report.json's message, junit.xml, index.html.
line_re = re.compile(r"should be( [0-9a-f]{2})+ \.\.\., is( [0-9a-f]{2})+ \.\.\.; [^\n]*" + re.escape(where))
one_line = [r for r in writers if line_re.search(r["message"]) and line_re.search(r["last_writer"])]
junit = open(os.path.join(run, "junit.xml")).read()
html = open(os.path.join(run, "index.html")).read()
valid = True
if os.path.exists(schema):
    import jsonschema
    s = json.load(open(schema))
    try:
        jsonschema.validators.validator_for(s)(s).validate(json.load(open(os.path.join(run, "report.sarif"))))
    except jsonschema.ValidationError as e:
        print("report.sarif is not SARIF 2.1.0:", e.message)
        valid = False
print(run, "writers", len(writers), "bad", bad[:3], "one line", len(one_line), "sarif", len(at), "at the line",
      len(here), "valid", valid, "roots", [(r["id"], r["key"]) for r in roots])
ok = (writers and not bad and one_line and here and valid and "   - written by: `" in summary
      and "   - finding: `PB-" in summary and line_re.search(junit) and line_re.search(html)
      and len(roots) == 1 and roots[0]["key"].endswith(where))
sys.exit(0 if ok else 1)
PY
}
# Fuzzing as the vendor's CI does it (docs/ci-fuzzing.md), with the
# copy's own fuzz binaries. libFuzzer as ClusterFuzzLite runs it: from the
# installed seeds (pbcheck fuzz lays them onto the copy's adapter), up to
# the first failing input, which is a seed (they show each bug), in about
# a second. AFL++ refuses seeds that fail: it starts from two installed
# seeds that pass on every copy and runs 5 s, finding the bug by
# mutation (6 to 12 failing inputs per copy, measured on a loaded
# two-core machine). ASan does not symbolize the fuzz binaries' crash
# reports: triage reads the inputs, not the reports, and symbolizing a
# crash takes longer than finding the next.
fuzz_targets=()
for name in cpu_zero gpu_q2 wk_src; do
    fuzz_targets+=("${name}_fuzzer")
    [ -n "$afl" ] && fuzz_targets+=("${name}_afl")
done
cmake --build "$build" -j2 --target "${fuzz_targets[@]}" >"$tmp/build-fuzz.log" 2>&1
check built-fuzzers [ $? -eq 0 ] || tail -30 "$tmp/build-fuzz.log"
mkdir -p "$tmp/seeds"
cp "$prefix/share/pbcheck/seeds/"{fill-basic,map-access-unmap-dummy}.pbs "$tmp/seeds/"
campaigns() { # NAME: $tmp/fuzz-NAME/{libfuzzer,afl}, each with what it found
    local name=$1 out=$tmp/fuzz-$1 engine found
    local asan=${ASAN_OPTIONS:+$ASAN_OPTIONS:}symbolize=0
    ASAN_OPTIONS=$asan "$pbcheck" fuzz --target "$build/lib$name.so" --stop-at-crash --time 30 \
        --out "$out/libfuzzer" >"$out-libfuzzer.log" 2>&1
    [ -n "$afl" ] && ASAN_OPTIONS=$asan "$pbcheck" fuzz --target "$build/lib$name.so" --engine afl --time 5 \
        --seeds "$tmp/seeds" --out "$out/afl" >"$out-afl.log" 2>&1
    for engine in libfuzzer ${afl:+afl}; do
        found=$(find "$out/$engine" -path '*/artifacts/crash-*' -o -path '*/crashes/id:*' | wc -l)
        echo "$name: $engine found $found failing inputs"
        [ "$found" -gt 0 ] || { tail -5 "$out-$engine.log"; return 1; }
    done
}
# Each copy's triage of what both campaigns found runs while the next
# copy's campaigns do.
triaging=()
for name in cpu_zero gpu_q2 wk_src; do
    check "campaigns-$name" campaigns "$name"
    "$pbcheck" triage "$tmp/fuzz-$name" --target "$build/lib$name.so" --source-root "$vendor" \
        --out "$tmp/tri-$name" >"$tmp/tri-$name.out" 2>&1 &
    triaging+=($!)
done
wait "$background" "${triaging[@]}"

check certify-cpu-names-line certify_names cpu_zero excpu_ddi.c "$zero"
check certify-gpu-names-line certify_names gpu_q2 exgpu_ddi.c "$gpu"
check certify-worker-names-line certify_names wk_src exwk_ddi.c "$wk"

# triage of both campaigns' findings: every failing bucket's root cause is
# one, keyed by the planted line, with inputs of each engine in it (and
# perhaps AFL++'s hangs, which replay as the same divergence); every
# bucket's writer names the line, and triage.sarif (SARIF 2.1.0) puts
# every result there, relative to the source root.
triage_one_root() { # NAME FILE LINE
    local name=$1 file=$2 line=$3
    python3 - "$tmp/tri-$name" "$file:$line" "$name/$file" "$line" "${afl:+afl-crash}" "$sarif_schema" <<'PY'
import json, os, sys
out, where, uri, line, afl, schema = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5], sys.argv[6]
d = json.load(open(os.path.join(out, "triage.json")))
failing = {b["id"]: b for b in d["buckets"] if b["facts"]["class"] not in ("no-repro", "invalid")}
roots = [r for r in d["root_causes"] if r["id"] in {b["root_cause"] for b in failing.values()}]
origins = {i["origin"] for i in d["inputs"] if i.get("bucket") in failing}
want = {o for o in ("libfuzzer-crash", afl) if o}
writers = [b["last_writer"] for b in failing.values() if b.get("last_writer")]
sarif = json.load(open(os.path.join(out, "triage.sarif")))
at = [l["physicalLocation"] for res in sarif["runs"][0]["results"] for l in res.get("locations", [])]
elsewhere = [p for p in at if (p["artifactLocation"].get("uri"), p["artifactLocation"].get("uriBaseId"),
                               p.get("region", {}).get("startLine")) != (uri, "SRCROOT", line)]
valid = True
if os.path.exists(schema):
    import jsonschema
    s = json.load(open(schema))
    try:
        jsonschema.validators.validator_for(s)(s).validate(sarif)
    except jsonschema.ValidationError as e:
        print("triage.sarif is not SARIF 2.1.0:", e.message)
        valid = False
print(out, len(failing), "failing buckets", sorted(origins), [(r["id"], r["key"]) for r in roots], "writers",
      len(writers), "sarif", len(at), "elsewhere", elsewhere[:2])
sys.exit(0 if want <= origins <= want | {"afl-hang"} and len(roots) == 1 and roots[0]["key"].endswith(where)
         and writers and all(where in w for w in writers) and at and not elsewhere and valid else 1)
PY
}
check triage-cpu-one-root triage_one_root cpu_zero excpu_ddi.c "$zero"
check triage-gpu-one-root triage_one_root gpu_q2 exgpu_ddi.c "$gpu"
check triage-worker-one-root triage_one_root wk_src exwk_ddi.c "$wk"

# mutant-unmap-zero: both rules are the store of the GART packet's value
# that set the entry, one root cause.
unmap_one_root() {
    python3 - "$tmp/tri-unmap/triage.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
failing = [b for b in d["buckets"] if b["facts"]["class"] not in ("no-repro", "invalid")]
rules = sorted({b["facts"]["rule"] for b in failing})
roots = [r for r in d["root_causes"] if r["id"] in {b["root_cause"] for b in failing}]
print(sys.argv[1], rules, [(r["id"], r["key"]) for r in roots])
sys.exit(0 if rules == ["PB-GPU-FAULT", "PB-UNMAP-DUMMY"] and len(roots) == 1
         and roots[0]["key"].startswith("writer|") and "GART entry" in failing[0].get("last_writer", "") else 1)
PY
}
check triage-unmap-zero-one-root unmap_one_root

finish
