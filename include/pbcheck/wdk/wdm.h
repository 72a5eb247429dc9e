/*
 * wdm.h — the subset of the Windows kernel headers that paging-buffer
 * builders use, with Windows' names and x86-64 (LLP64) layouts, so that a
 * driver's BuildPagingBuffer source compiles unchanged on Linux.
 *
 * Kernel services (MDL mapping, I/O space, registers) are declared here and
 * served by pbcheck's WDK shim from modeled memory.
 */
#ifndef PBCHECK_WDK_WDM_H
#define PBCHECK_WDK_WDM_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Basic types (LLP64: ULONG and LONG are 32-bit) ---- */
typedef void VOID;
typedef void *PVOID;
typedef uint8_t UCHAR, *PUCHAR;
typedef int8_t CHAR;
typedef uint16_t USHORT, *PUSHORT;
typedef int16_t SHORT, CSHORT;
typedef uint32_t ULONG, *PULONG;
typedef int32_t LONG, *PLONG;
typedef uint32_t UINT, *PUINT;
typedef int32_t INT;
typedef uint32_t UINT32;
typedef uint64_t UINT64;
typedef int64_t INT64;
typedef uint64_t ULONGLONG;
typedef int64_t LONGLONG;
typedef uint64_t ULONG64;
typedef uint64_t ULONG_PTR, *PULONG_PTR;
typedef int64_t LONG_PTR;
typedef uint64_t UINT_PTR;
typedef uint64_t SIZE_T, *PSIZE_T;
typedef uint8_t BOOLEAN;
typedef int BOOL;
typedef void *HANDLE;
typedef LONG NTSTATUS;
typedef ULONG_PTR KSPIN_LOCK, *PKSPIN_LOCK;
typedef UCHAR KIRQL, *PKIRQL;
typedef ULONG_PTR PFN_NUMBER, *PPFN_NUMBER;

#ifndef TRUE
#define TRUE 1
#endif
#ifndef FALSE
#define FALSE 0
#endif

#define IN
#define OUT
#define OPTIONAL
#define _In_
#define _Out_
#define _Inout_
#define _In_opt_
#define APIENTRY
#define NTAPI
#define FORCEINLINE static inline

typedef union _LARGE_INTEGER {
    struct {
        ULONG LowPart;
        LONG HighPart;
    };
    struct {
        ULONG LowPart;
        LONG HighPart;
    } u;
    LONGLONG QuadPart;
} LARGE_INTEGER, *PLARGE_INTEGER;

typedef LARGE_INTEGER PHYSICAL_ADDRESS, *PPHYSICAL_ADDRESS;

/* ---- Status codes ---- */
#define NT_SUCCESS(s) (((NTSTATUS)(s)) >= 0)
#define STATUS_SUCCESS ((NTSTATUS)0x00000000L)
#define STATUS_UNSUCCESSFUL ((NTSTATUS)0xC0000001L)
#define STATUS_NOT_IMPLEMENTED ((NTSTATUS)0xC0000002L)
#define STATUS_INVALID_PARAMETER ((NTSTATUS)0xC000000DL)
#define STATUS_NO_MEMORY ((NTSTATUS)0xC0000017L)
#define STATUS_BUFFER_TOO_SMALL ((NTSTATUS)0xC0000023L)
#define STATUS_INSUFFICIENT_RESOURCES ((NTSTATUS)0xC000009AL)
#define STATUS_NOT_SUPPORTED ((NTSTATUS)0xC00000BBL)
#define STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER ((NTSTATUS)0xC01E0001L)
#define STATUS_GRAPHICS_NO_VIDEO_MEMORY ((NTSTATUS)0xC01E0100L)
#define STATUS_GRAPHICS_CANT_LOCK_MEMORY ((NTSTATUS)0xC01E0101L)
#define STATUS_GRAPHICS_ALLOCATION_BUSY ((NTSTATUS)0xC01E0102L)
#define STATUS_GRAPHICS_INVALID_ALLOCATION_HANDLE ((NTSTATUS)0xC01E0114L)
#define STATUS_GRAPHICS_GPU_EXCEPTION_ON_DEVICE ((NTSTATUS)0xC01E0200L)

/* ---- Memory descriptor lists ---- */
struct _EPROCESS;

typedef struct _MDL {
    struct _MDL *Next;
    CSHORT Size;
    CSHORT MdlFlags;
    struct _EPROCESS *Process;
    PVOID MappedSystemVa;
    PVOID StartVa;
    ULONG ByteCount;
    ULONG ByteOffset;
} MDL, *PMDL;

#define MDL_MAPPED_TO_SYSTEM_VA 0x0001
#define MDL_PAGES_LOCKED 0x0002
#define MDL_SOURCE_IS_NONPAGED_POOL 0x0004
#define MDL_PARTIAL 0x0010

#define PAGE_SIZE 0x1000
#define PAGE_SHIFT 12

/* The PFN array follows the MDL header. */
#define MmGetMdlPfnArray(m) ((PPFN_NUMBER)((m) + 1))
#define MmGetMdlVirtualAddress(m) ((PVOID)((PUCHAR)((m)->StartVa) + (m)->ByteOffset))
#define MmGetMdlByteCount(m) ((m)->ByteCount)
#define MmGetMdlByteOffset(m) ((m)->ByteOffset)
#define ADDRESS_AND_SIZE_TO_SPAN_PAGES(va, size) \
    ((ULONG)((((ULONG_PTR)(va) & (PAGE_SIZE - 1)) + (size) + (PAGE_SIZE - 1)) >> PAGE_SHIFT))

typedef enum _MM_PAGE_PRIORITY {
    LowPagePriority = 0,
    NormalPagePriority = 16,
    HighPagePriority = 32
} MM_PAGE_PRIORITY;

typedef enum _MEMORY_CACHING_TYPE {
    MmNonCached = 0,
    MmCached = 1,
    MmWriteCombined = 2
} MEMORY_CACHING_TYPE;

#define MdlMappingNoExecute 0x40000000

/* ---- Kernel services, served by the pbcheck WDK shim ---- */

/* Maps the MDL's pages to one contiguous CPU range. Writes through the
 * mapping reach modeled memory when the DDI call that made it returns or
 * when MmUnmapLockedPages is called, whichever comes first. */
PVOID MmGetSystemAddressForMdlSafe(PMDL Mdl, ULONG Priority);
VOID MmUnmapLockedPages(PVOID BaseAddress, PMDL Mdl);
/* Maps modeled physical memory (a segment range) for CPU access. */
PVOID MmMapIoSpace(PHYSICAL_ADDRESS PhysicalAddress, SIZE_T NumberOfBytes,
                   MEMORY_CACHING_TYPE CacheType);
VOID MmUnmapIoSpace(PVOID BaseAddress, SIZE_T NumberOfBytes);
/* Register access goes to the adapter's modeled MMIO register file when
 * Register lies in it. */
ULONG READ_REGISTER_ULONG(volatile ULONG *Register);
VOID WRITE_REGISTER_ULONG(volatile ULONG *Register, ULONG Value);
ULONG DbgPrint(const char *Format, ...);
ULONG DbgPrintEx(ULONG ComponentId, ULONG Level, const char *Format, ...);
VOID KeAcquireSpinLock(PKSPIN_LOCK SpinLock, PKIRQL OldIrql);
VOID KeReleaseSpinLock(PKSPIN_LOCK SpinLock, KIRQL NewIrql);
/* A failed NT_ASSERT is reported by the harness as a finding against the
 * target; it never aborts the harness. */
VOID pbc_wdk_assert_failed(const char *expr, const char *file, int line);

#define RtlCopyMemory(d, s, n) memcpy((d), (s), (n))
#define RtlMoveMemory(d, s, n) memmove((d), (s), (n))
#define RtlZeroMemory(d, n) memset((d), 0, (n))
#define RtlFillMemory(d, n, v) memset((d), (v), (n))
#define NT_ASSERT(e) ((e) ? (void)0 : pbc_wdk_assert_failed(#e, __FILE__, __LINE__))
#define PAGED_CODE() ((void)0)
#define UNREFERENCED_PARAMETER(p) ((void)(p))

#ifdef __cplusplus
}
#endif

#endif
