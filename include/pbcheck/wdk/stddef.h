/*
 * stddef.h — the compiler's own <stddef.h>, then, in C++, NULL as the
 * literal 0 that Windows' headers use. C library headers (<string.h>,
 * <stdio.h>, ...) include <stddef.h> again to define NULL as __null, which
 * is not a pure-specifier (`virtual VOID Reset() = NULL;` fails to compile)
 * and is not what a Windows compiler gives the driver. This file sits in the
 * WDK include folder, so every such inclusion passes through it.
 *
 * No include guard: <stddef.h> is included repeatedly with __need_*
 * macros, and each inclusion must reach the compiler's file.
 */
#include_next <stddef.h>

#ifdef __cplusplus
#undef NULL
#define NULL 0
#endif
