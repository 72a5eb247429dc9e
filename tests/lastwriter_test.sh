#!/usr/bin/env bash
# Who wrote the first wrong byte (docs/triage.md, "Who wrote it"): copies
# of the example builders, out of pbcheck's tree, each with a one-line
# planted bug, built with -g as a vendor builds a builder library. The
# finding of `pbcheck run`, and certify's report.json, summary.md and
# report.sarif (relative to --source-root), name the planted line; certify
# rolls its groups up, and triage sorts the failing seeds, into one root
# cause there. An abort() ending a function is named in that function.
# report.sarif validates against SARIF 2.1.0 (PBC_SARIF_SCHEMA, as
# report_test.sh finds it).
# Usage: lastwriter_test.sh PBCHECK SOURCE_DIR C_COMPILER
set -u
pbcheck=$(realpath "$1") src=$(realpath "$2") cc=$3
sarif_schema=${PBC_SARIF_SCHEMA:-/usr/local/share/pbcheck/sarif-schema-2.1.0.json}
# A divergence's finding in one line: its wrong bytes, then who wrote them.
bytes='[^ ]+ should be( [0-9a-f]{2})+ \.\.\., is( [0-9a-f]{2})+ \.\.\.; '
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
. "$(dirname "$0")/check.sh"

# plant NAME EXAMPLE FILE 'LINE TEXT' 'REPLACEMENT': a copy of the example
# with one line changed, built into $tmp/NAME/libNAME.so; prints the
# changed line's number.
plant() {
    local name=$1 example=$2 file=$3 from=$4 to=$5
    mkdir -p "$tmp/$name"
    cp "$src/targets/examples/$example"/* "$tmp/$name/"
    local line
    line=$(grep -nF -- "$from" "$tmp/$name/$file" | cut -d: -f1)
    [ "$(echo "$line" | wc -w)" -eq 1 ] || { echo "plant $name: '$from' is not one line of $file" >&2; return 1; }
    sed -i "${line}s|.*|$to|" "$tmp/$name/$file"
    "$cc" -g -O1 -shared -fPIC -fvisibility=hidden -I"$src/include" -I"$tmp/$name" "$tmp/$name"/*.c \
        -o "$tmp/$name/lib$name.so" || return 1
    echo "$line"
}

# A CPU copy that stops a byte short: the last byte is never written, and
# the finding names the builder's last store into its page.
short=$(plant cpu_short example_cpu excpu_ddi.c '    RtlCopyMemory(dst, src, Size);' \
    '    RtlCopyMemory(dst, src, Size - 1);')
check cpu-short-built [ -n "$short" ]
# A CPU copy that zeroes instead: the store wrote the wrong bytes.
zero=$(plant cpu_zero example_cpu excpu_ddi.c '    RtlCopyMemory(dst, src, Size);' '    RtlZeroMemory(dst, Size);')
check cpu-zero-built [ -n "$zero" ]

"$pbcheck" run "$src/corpus/seeds/busy-retry.pbs" --target "$tmp/cpu_short/libcpu_short.so" >"$tmp/short.out" 2>&1
check short-fails grep -q '^FAIL .*PB-DIVERGE' "$tmp/short.out"
check short-names-line grep -Eq "never written by the builder; its last store into the page was ExCpuCopyEviction at $tmp/cpu_short/excpu_ddi.c:$short, inlined into ExCpuTransfer at [^ ]*:[0-9]+ during BuildPagingBuffer call [0-9]+ \(Transfer, MultipassOffset 0\)" "$tmp/short.out" ||
    cat "$tmp/short.out"
"$pbcheck" run "$src/corpus/seeds/busy-retry.pbs" --target "$tmp/cpu_zero/libcpu_zero.so" >"$tmp/zero.out" 2>&1
check zero-names-line grep -Eq "^  ${bytes}written by ExCpuCopyEviction at $tmp/cpu_zero/excpu_ddi.c:$zero, inlined into ExCpuTransfer" \
    "$tmp/zero.out" || cat "$tmp/zero.out"

# A packet builder whose copies read one byte too far on (and whose
# fills are a byte too long): the store of the packet's field, through
# its inline chain.
gpu=$(plant gpu_q2 example_gpu exgpu_ddi.c '        exgpu_wr64(W->Cur + 16, Q2);' \
    '        exgpu_wr64(W->Cur + 16, Q2 + 1);')
check gpu-built [ -n "$gpu" ]
# A worker builder whose CPU work copies from a byte further on.
wk=$(plant wk_src example_worker exwk_ddi.c '        RtlMoveMemory(d, s, Size);' '        RtlMoveMemory(d, s + 1, Size);')
check worker-built [ -n "$wk" ]
"$pbcheck" run "$src/corpus/seeds/busy-retry.pbs" --target "$tmp/gpu_q2/libgpu_q2.so" >"$tmp/gpu.out" 2>&1
check gpu-names-line grep -Eq "^  ${bytes}written by packet [0-9]+ of paging buffer [0-9]+ \(copy at \+0x[0-9a-f]+\), whose source was stored by exgpu_wr64 at [^ ]*exgpu_hw.h:[0-9]+, inlined into ExGpuEmit at $tmp/gpu_q2/exgpu_ddi.c:$gpu, inlined into ExGpuCopy" \
    "$tmp/gpu.out"
"$pbcheck" run "$src/corpus/seeds/busy-retry.pbs" --target "$tmp/wk_src/libwk_src.so" >"$tmp/wk.out" 2>&1
check worker-names-line grep -Eq "^  ${bytes}written by ExWkCopy at $tmp/wk_src/exwk_ddi.c:$wk in CPU work queued at SubmitCommand \(for operation 2\)" \
    "$tmp/wk.out"

# A crash: abort() as the last call of ExGpuBuildPagingBuffer. Its
# return address is the first byte of the function after it (ExGpuPatch):
# the frame is named by the call, the byte before.
mkdir -p "$tmp/gpu_abort"
cp "$src/targets/examples/example_gpu"/* "$tmp/gpu_abort/"
python3 - "$tmp/gpu_abort/exgpu_ddi.c" <<'PY'
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
abort_line=$(grep -n '^    abort();$' "$tmp/gpu_abort/exgpu_ddi.c" | cut -d: -f1)
"$cc" -g -O1 -shared -fPIC -fvisibility=hidden -I"$src/include" -I"$tmp/gpu_abort" "$tmp/gpu_abort"/*.c \
    -o "$tmp/gpu_abort/libgpu_abort.so"
"$pbcheck" run "$src/corpus/seeds/busy-discard.pbs" --target "$tmp/gpu_abort/libgpu_abort.so" >"$tmp/abort.out" 2>&1
check abort-in-its-function grep -Eq "^  crash: SIGABRT \(signal 6\) in ExGpuBuildPagingBuffer at $tmp/gpu_abort/exgpu_ddi.c:$abort_line " \
    "$tmp/abort.out"

# certify: every reproducer's writer and location is the planted line,
# report.sarif puts its results there relative to the source root,
# summary.md carries the finding and the writer, and every group rolls up
# to one root cause.
certify_names() { # NAME FILE LINE
    local name=$1 file=$2 line=$3
    (cd "$tmp" && "$pbcheck" certify --target "$tmp/$name/lib$name.so" --quick --source-root "$tmp" \
        --out "$tmp/cert-$name" >"$tmp/cert-$name.out" 2>&1)
    grep -q 'verdict: NOT CONFORMANT' "$tmp/cert-$name.out" || return 1
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
check certify-cpu-names-line certify_names cpu_zero excpu_ddi.c "$zero"
check certify-gpu-names-line certify_names gpu_q2 exgpu_ddi.c "$gpu"
check certify-worker-names-line certify_names wk_src exwk_ddi.c "$wk"

# triage of fuzzers' findings: one root cause, at the planted line. The
# inputs are the seed scenarios as the builder's fuzz targets take them
# (pbcheck encode lays each on the builder's adapter, as its fuzz target
# decodes every input), laid out as libFuzzer leaves its findings
# (artifacts/crash-SHA1) and as AFL++ does (afl/default/crashes/id:...),
# with the same bytes in both (triage replays each once): a fuzzing
# campaign in the suite's time would find a handful of them, not every
# way the bug shows.
triage_one_root() { # NAME FILE LINE
    local name=$1 file=$2 line=$3 art=$tmp/art-$1 k=0 f id
    "$pbcheck" encode "$src"/corpus/seeds/*.pbs --target "$tmp/$name/lib$name.so" --out "$tmp/enc-$name" \
        >"$tmp/enc-$name.out" 2>&1 || return 1
    mkdir -p "$art/libfuzzer/artifacts" "$art/afl/default/crashes"
    for f in "$tmp/enc-$name"/*.bin; do
        cp "$f" "$art/libfuzzer/artifacts/crash-$(sha1sum "$f" | cut -c1-40)"
        printf -v id '%06d' "$k"
        cp "$f" "$art/afl/default/crashes/id:$id,sig:06,src:000000,time:$k,execs:$k,op:havoc,rep:1"
        k=$((k + 1))
    done
    "$pbcheck" triage "$art" --target "$tmp/$name/lib$name.so" --out "$tmp/tri-$name" >"$tmp/tri-$name.out" 2>&1
    python3 - "$tmp/tri-$name/triage.json" "$file:$line" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
failing = {b["id"]: b["root_cause"] for b in d["buckets"] if b["facts"]["class"] not in ("no-repro", "invalid")}
roots = [r for r in d["root_causes"] if r["id"] in failing.values()]
origins = sorted({i["origin"] for i in d["inputs"] if i.get("bucket") in failing})
print(sys.argv[1], origins, [(r["id"], r["key"]) for r in roots])
sys.exit(0 if origins == ["afl-crash", "libfuzzer-crash"] and len(roots) == 1 and roots[0]["key"].endswith(sys.argv[2])
         else 1)
PY
}
check triage-cpu-one-root triage_one_root cpu_zero excpu_ddi.c "$zero"
check triage-gpu-one-root triage_one_root gpu_q2 exgpu_ddi.c "$gpu"
check triage-worker-one-root triage_one_root wk_src exwk_ddi.c "$wk"

# mutant-unmap-zero points unmapped aperture pages at page 0: its seeds
# fail as PB-UNMAP-DUMMY (the entry after the unmap) and PB-GPU-FAULT (an
# access through the entry), one bug. Both are the store of the GART
# packet's value that set the entry: one root cause.
unmap_one_root() {
    "$pbcheck" triage "$src/corpus/seeds" --target mutant-unmap-zero --out "$tmp/tri-unmap" >"$tmp/tri-unmap.out" 2>&1
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
