/* A target's glue that calls kernel services; with CALL_KEFOOBAR it also
 * calls a kernel function pbcheck does not serve, declared by the driver
 * itself, so it compiles and links as a shared library (undefined symbols
 * are allowed there) and only the link check can catch it. */
#include <ntddk.h>
#include <stdio.h>

#ifdef CALL_KEFOOBAR
VOID KeFooBar(ULONG Value);
#endif

__attribute__((visibility("default"))) int glue_entry(char *out, size_t size)
{
    KEVENT event;
    KeInitializeEvent(&event, NotificationEvent, FALSE);
#ifdef CALL_KEFOOBAR
    KeFooBar(1);
#endif
    return snprintf(out, size, "%d", (int)KeReadStateEvent(&event));
}
