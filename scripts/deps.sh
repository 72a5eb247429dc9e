#!/usr/bin/env bash
# Installs the Debian packages pbcheck needs, if any is missing.
# Usage: scripts/deps.sh   (as root, or with sudo available)
set -euo pipefail
# python3-jsonschema validates report.json against its schema and chromium
# renders index.html in the report tests (CTest label "report").
need=(clang cmake make pkg-config libxxhash-dev libjansson-dev libxml2-dev libxml2-utils python3 libclang-rt-14-dev afl++ zip unzip
      python3-jsonschema chromium)
missing=()
for p in "${need[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "pbcheck: installing ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
