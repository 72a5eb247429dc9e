/* ntddk.h — driver sources include it; everything pbcheck models is in
 * wdm.h. Defines _NTDDK_ as Windows does, so driver headers that test it
 * before defining NTSTATUS or PFN_NUMBER themselves compile. */
#ifndef PBCHECK_WDK_NTDDK_H
#define PBCHECK_WDK_NTDDK_H
#ifndef _NTDDK_
#define _NTDDK_
#endif
#include "wdm.h"
#endif
