/* ntddk.h — driver sources include it; everything pbcheck models is in wdm.h. */
#ifndef PBCHECK_WDK_NTDDK_H
#define PBCHECK_WDK_NTDDK_H
#include "wdm.h"
#endif
