/* A driver's own header, as vendor sources write them: it defines NTSTATUS
 * and a 32-bit PFN_NUMBER itself unless the kernel headers came first. It
 * compiles only because ntddk.h defines _NTDDK_. */
#ifndef DRIVER_SHAPED_H
#define DRIVER_SHAPED_H

#ifndef _NTDDK_
typedef long NTSTATUS;
typedef unsigned int PFN_NUMBER;
#define STATUS_SUCCESS 0
#endif

#define DS_POOL_TAG ((ULONG)0x31507344) /* "DsP1" in memory order */
#define DS_MAX_PENDING 8

#endif
