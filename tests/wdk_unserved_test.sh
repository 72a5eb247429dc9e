#!/bin/sh
# A kernel call the harness does not serve must fail to build, naming the
# call: undeclared, it fails to compile; declared by the driver itself, it
# fails to link against the kernel services.
# Usage: wdk_unserved_test.sh CC INCLUDE_DIR SERVICES_LIBRARY
set -u
cc=$1 inc=$2 lib=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat > "$dir/d.c" <<'SRC'
#include <ntddk.h>
int main(void)
{
    KEVENT e;
    KeInitializeEvent(&e, NotificationEvent, FALSE);
    return IoAllocateMdl(NULL, 0, FALSE, FALSE, NULL) == NULL;
}
SRC
fail=0
if "$cc" -std=c11 -Wall -Werror -I"$inc" -c "$dir/d.c" -o "$dir/d.o" 2> "$dir/compile.log"; then
    echo "FAIL: a call to an undeclared kernel function compiled"; fail=1
elif ! grep -q "IoAllocateMdl" "$dir/compile.log"; then
    echo "FAIL: the compile error does not name the call:"; cat "$dir/compile.log"; fail=1
fi
if ! "$cc" -std=c11 -Wno-implicit-function-declaration -I"$inc" -c "$dir/d.c" -o "$dir/d.o"; then
    echo "FAIL: could not build the object for the link check"; exit 1
fi
if "$cc" "$dir/d.o" "$lib" -o "$dir/d" 2> "$dir/link.log"; then
    echo "FAIL: a call to an unserved kernel function linked"; fail=1
elif ! grep -q "undefined reference to .IoAllocateMdl" "$dir/link.log"; then
    echo "FAIL: the link error does not name the call:"; cat "$dir/link.log"; fail=1
elif grep -q "undefined reference to .KeInitializeEvent" "$dir/link.log"; then
    echo "FAIL: a served call (KeInitializeEvent) did not link"; fail=1
fi
[ $fail = 0 ] && echo ok
exit $fail
