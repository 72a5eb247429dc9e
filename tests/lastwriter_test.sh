#!/usr/bin/env bash
# Who wrote the first wrong byte (docs/triage.md, "Who wrote it"): copies
# of the example builders, out of pbcheck's tree, each with a one-line
# planted bug, built with -g as a vendor builds a builder library. The
# finding of `pbcheck run`, and certify's report.json, summary.md and
# report.sarif (relative to --source-root), name the planted line.
# Usage: lastwriter_test.sh PBCHECK SOURCE_DIR C_COMPILER
set -u
pbcheck=$(realpath "$1") src=$(realpath "$2") cc=$3
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
check zero-names-line grep -Eq "^  written by ExCpuCopyEviction at $tmp/cpu_zero/excpu_ddi.c:$zero, inlined into ExCpuTransfer" \
    "$tmp/zero.out" || cat "$tmp/zero.out"

# certify: every reproducer's writer and location is the planted line,
# report.sarif puts its results there relative to the source root, and
# summary.md carries the finding and the writer.
(cd "$tmp" && "$pbcheck" certify --target "$tmp/cpu_zero/libcpu_zero.so" --quick --source-root "$tmp" \
    --out "$tmp/cert" >"$tmp/cert.out" 2>&1)
check certify-not-conformant grep -q 'verdict: NOT CONFORMANT' "$tmp/cert.out"
python3 - "$tmp/cert/latest" "excpu_ddi.c:$zero" "cpu_zero/excpu_ddi.c" "$zero" <<'PY' >"$tmp/cert.check" 2>&1
import json, os, sys
run, where, uri, line = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
results = json.load(open(os.path.join(run, "report.json")))["results"]
writers = [r for r in results if "last_writer" in r]
bad = [r["name"] for r in writers if where not in r["last_writer"] or not r["location"].endswith(where)]
print("writers", len(writers), "bad", bad[:3])
sarif = json.load(open(os.path.join(run, "report.sarif")))["runs"][0]
at = [l["physicalLocation"] for res in sarif["results"] for l in res.get("locations", [])]
here = [p for p in at if p["artifactLocation"].get("uri") == uri and p["artifactLocation"].get("uriBaseId") == "SRCROOT"
        and p.get("region", {}).get("startLine") == line]
print("sarif locations", len(at), "at the planted line", len(here))
summary = open(os.path.join(run, "summary.md")).read()
ok = writers and not bad and here and "written by: `written by ExCpuCopyEviction" in summary and "finding: `PB-DIVERGE" in summary
sys.exit(0 if ok else 1)
PY
check certify-names-planted-line [ $? -eq 0 ] || cat "$tmp/cert.check"

finish
