#!/bin/sh
# A driver that defines DWORD itself (tests/wdk_base_types.c) fails to
# compile against the WDK headers unless it defines PBC_WDK_DRIVER_BASE_TYPES,
# and the error names DWORD.
# Usage: wdk_base_types_test.sh CC INCLUDE_DIR SOURCE
set -u
cc=$1 inc=$2 src=$3
log=$(mktemp)
trap 'rm -f "$log"' EXIT
fail=0
if "$cc" -std=c11 -Wall -Wextra -Werror -I"$inc" -fsyntax-only "$src" 2> "$log"; then
    echo "FAIL: a driver's own DWORD compiled without PBC_WDK_DRIVER_BASE_TYPES"; fail=1
elif ! grep -q "DWORD" "$log"; then
    echo "FAIL: the error does not name DWORD:"; cat "$log"; fail=1
fi
if ! "$cc" -std=c11 -Wall -Wextra -Werror -DPBC_WDK_DRIVER_BASE_TYPES -I"$inc" -fsyntax-only "$src"; then
    echo "FAIL: PBC_WDK_DRIVER_BASE_TYPES did not let the driver's DWORD compile"; fail=1
fi
[ $fail = 0 ] && echo ok
exit $fail
