#!/usr/bin/env bash
# A builder whose create_adapter runs a driver's StartDevice on the
# DXGKRNL_INTERFACE pbcheck hands it (pbc_wdk_dxgkrnl_interface, exported
# by pbcheck): when the glue serves the one callback StartDevice calls,
# every seed passes; when it leaves pbcheck's trap there, the call fails,
# the adapter does not start, and the run fails with a PB-KERNEL finding
# naming the callback instead of being skipped as a refusal.
# Usage: dxgkrnl_target_test.sh PBCHECK SOURCE_DIR LIB_SERVED LIB_TRAPPED
set -u
pbcheck=$1 src=$2 served=$3 trapped=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/check.sh"

"$pbcheck" run "$src"/corpus/seeds/fill-basic.pbs --target "$served" >"$tmp/served" 2>&1
check served-exit-0 [ $? -eq 0 ] || cat "$tmp/served"
check served-all-pass grep -Eq '^run: [1-9][0-9]* passed, 0 failed' "$tmp/served"
"$pbcheck" run "$src"/corpus/seeds/fill-basic.pbs --target "$trapped" >"$tmp/trapped" 2>&1
check trapped-fails [ $? -eq 1 ] || cat "$tmp/trapped"
check trapped-is-kernel-finding grep -q 'PB-KERNEL' "$tmp/trapped"
check trapped-names-callback grep -q 'DxgkCbIndicateConnectorChange called: a DXGKRNL_INTERFACE callback pbcheck does not serve' "$tmp/trapped"
check trapped-not-skipped sh -c "! grep -q 'refused to create its adapter' '$tmp/trapped'"
finish
