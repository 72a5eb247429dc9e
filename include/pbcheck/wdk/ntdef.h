/*
 * ntdef.h — the basic types, status codes and helper macros of the Windows
 * kernel headers, with Windows' names and x86-64 (LLP64) sizes: ULONG and
 * LONG are 32-bit (never `unsigned long`, which is 64-bit on Linux),
 * ULONG_PTR, SIZE_T and pointers are 64-bit, WCHAR is 16-bit.
 *
 * Defines _NTDEF_ as Windows does, so driver headers that test it compile.
 *
 * Driver-defined base types. A driver that defines DWORD or BOOL itself
 * (typically `typedef unsigned long DWORD;`, which on Windows repeats the
 * SDK's definition) compiles with PBC_WDK_DRIVER_BASE_TYPES defined: these
 * headers then leave DWORD, PDWORD, LPDWORD, BOOL, PBOOL and LPBOOL to the
 * driver, and no declaration here spells those names, so every Windows
 * structure keeps its layout. A driver's `unsigned long` is 64-bit on
 * Linux: docs/writing-a-target.md says when that matters. BASETYPES is
 * defined as Windows defines it, so driver typedefs guarded by
 * `#ifndef BASETYPES` (ULONG, USHORT, UCHAR, PSZ) are skipped.
 */
#ifndef PBCHECK_WDK_NTDEF_H
#define PBCHECK_WDK_NTDEF_H

#ifndef _NTDEF_
#define _NTDEF_
#endif

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sal.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Calling conventions and declaration decorations (all no-ops) ---- */
#ifndef IN
#define IN
#endif
#ifndef OUT
#define OUT
#endif
#ifndef OPTIONAL
#define OPTIONAL
#endif
#ifndef CONST
#define CONST const
#endif
#ifndef UNALIGNED
#define UNALIGNED
#endif
#ifndef RESTRICTED_POINTER
#define RESTRICTED_POINTER
#endif
#ifndef NTAPI
#define NTAPI
#endif
#ifndef CALLBACK
#define CALLBACK
#endif
#ifndef WINAPIV
#define WINAPIV
#endif
#ifndef APIENTRY
#define APIENTRY
#endif
#ifndef WINAPI
#define WINAPI
#endif
#ifndef __stdcall
#define __stdcall
#endif
#ifndef __cdecl
#define __cdecl
#endif
#ifndef __fastcall
#define __fastcall
#endif
/* Always inlined, so no out-of-line copy is needed even for C's inline
 * definitions; drivers write both FORCEINLINE and static FORCEINLINE. */
#ifndef __forceinline
#define __forceinline inline __attribute__((always_inline))
#endif
#ifndef FORCEINLINE
#define FORCEINLINE __forceinline
#endif
#ifndef NTSYSAPI
#define NTSYSAPI
#endif
#ifndef NTKERNELAPI
#define NTKERNELAPI
#endif
#ifndef NTHALAPI
#define NTHALAPI
#endif
#ifndef DECLSPEC_NOINLINE
#define DECLSPEC_NOINLINE __attribute__((noinline))
#endif
#ifndef DECLSPEC_NORETURN
#define DECLSPEC_NORETURN __attribute__((noreturn))
#endif
#ifndef DECLSPEC_ALIGN
#define DECLSPEC_ALIGN(x) __attribute__((aligned(x)))
#endif
#ifndef DECLSPEC_CACHEALIGN
#define DECLSPEC_CACHEALIGN DECLSPEC_ALIGN(64)
#endif
#ifndef DECLSPEC_IMPORT
#define DECLSPEC_IMPORT
#endif
#ifndef DECLSPEC_EXPORT
#define DECLSPEC_EXPORT
#endif
#ifndef DECLSPEC_SELECTANY
#define DECLSPEC_SELECTANY __attribute__((weak))
#endif
#ifndef DECLSPEC_DEPRECATED
#define DECLSPEC_DEPRECATED
#endif
#ifndef DECLSPEC_DEPRECATED_DDK
#define DECLSPEC_DEPRECATED_DDK
#endif
#ifndef DECLSPEC_NOTHROW
#define DECLSPEC_NOTHROW
#endif
#ifndef __int64
#define __int64 long long
#endif

/* ---- Basic types (LLP64) ---- */
typedef void VOID;
typedef void *PVOID, *LPVOID;
typedef const void *PCVOID, *LPCVOID;
typedef char CHAR, *PCHAR, *PSTR, *LPSTR;
typedef const char *PCSTR, *LPCSTR;
typedef CHAR CCHAR;
typedef uint8_t UCHAR, *PUCHAR;
typedef uint8_t BYTE, *PBYTE, *LPBYTE;
typedef uint16_t USHORT, *PUSHORT;
typedef uint16_t WORD, *PWORD;
typedef int16_t SHORT, *PSHORT, CSHORT;
typedef uint32_t ULONG, *PULONG, CLONG;
typedef int32_t LONG, *PLONG;
#ifndef PBC_WDK_DRIVER_BASE_TYPES
typedef uint32_t DWORD, *PDWORD, *LPDWORD;
#endif
typedef uint32_t UINT, *PUINT;
typedef int32_t INT, *PINT;
typedef int8_t INT8, *PINT8;
typedef uint8_t UINT8, *PUINT8;
typedef int16_t INT16, *PINT16;
typedef uint16_t UINT16, *PUINT16;
typedef int32_t INT32, LONG32, *PINT32, *PLONG32;
typedef uint32_t UINT32, ULONG32, DWORD32, *PUINT32, *PULONG32, *PDWORD32;
typedef int8_t *PCHAR8;
typedef int64_t INT64, LONG64, LONGLONG;
typedef uint64_t UINT64, ULONG64, ULONGLONG, DWORD64;
typedef uint64_t *PULONG64, *PULONGLONG, *PUINT64, *PDWORD64;
typedef int64_t *PLONG64, *PLONGLONG, *PINT64;
typedef uint64_t ULONG_PTR, *PULONG_PTR, DWORD_PTR;
typedef int64_t LONG_PTR, *PLONG_PTR;
typedef uint64_t UINT_PTR;
typedef int64_t INT_PTR;
typedef uint64_t SIZE_T, *PSIZE_T;
typedef int64_t SSIZE_T;
typedef float FLOAT;
typedef double DOUBLE;
typedef uint8_t BOOLEAN, *PBOOLEAN;
#ifndef PBC_WDK_DRIVER_BASE_TYPES
typedef int BOOL, *PBOOL, *LPBOOL;
#endif
typedef char *PSZ;
typedef const char *PCSZ;
typedef void *HANDLE, **PHANDLE;
typedef LONG NTSTATUS, *PNTSTATUS;
typedef ULONG LOGICAL, *PLOGICAL;
typedef ULONG_PTR KAFFINITY, *PKAFFINITY;

/* Windows defines BASETYPES with ULONG, USHORT, UCHAR and PSZ. */
#ifndef BASETYPES
#define BASETYPES
#endif
/* WCHAR is 16-bit. Windows' wchar_t is 16-bit and WCHAR is wchar_t, so
 * drivers write L"..." into WCHAR arrays. Where wchar_t is 16-bit here too
 * (clang -fshort-wchar, which pbcheck_add_target applies), WCHAR is
 * wchar_t and L"..." fits it as on Windows; otherwise (wchar_t is 32-bit
 * on Linux) WCHAR is char16_t in C++ and uint16_t in C, and only u"..."
 * literals fit it (docs/wdk-headers.md, "WCHAR strings"). */
#if defined(__SIZEOF_WCHAR_T__) && __SIZEOF_WCHAR_T__ == 2
typedef wchar_t WCHAR;
#elif defined(__cplusplus)
typedef char16_t WCHAR;
#else
typedef uint16_t WCHAR;
#endif
typedef WCHAR *PWCHAR, *PWCH, *PWSTR, *LPWSTR;
typedef const WCHAR *PCWCH, *PCWSTR, *LPCWSTR;

#ifndef TRUE
#define TRUE 1
#endif
#ifndef FALSE
#define FALSE 0
#endif
/* NULL is a null pointer constant as Windows' headers define it: 0 in C++
 * (so `virtual ... = NULL;` is a pure-specifier, as MSVC accepts), and
 * ((void *)0) in C. A C library header included later defines NULL again
 * as __null; pbcheck's stddef.h (next to this file) puts 0 back. */
#ifdef __cplusplus
#undef NULL
#define NULL 0
#elif !defined(NULL)
#define NULL ((void *)0)
#endif

#define MAXUCHAR 0xff
#define MAXUSHORT 0xffff
#define MAXULONG 0xffffffffu
#define MAXLONG 0x7fffffff
#define MINLONG (-MAXLONG - 1)
#define MAXLONGLONG 0x7fffffffffffffffll
#define MAXULONG_PTR (~(ULONG_PTR)0)
#define MAXSIZE_T (~(SIZE_T)0)

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

typedef union _ULARGE_INTEGER {
    struct {
        ULONG LowPart;
        ULONG HighPart;
    };
    struct {
        ULONG LowPart;
        ULONG HighPart;
    } u;
    ULONGLONG QuadPart;
} ULARGE_INTEGER, *PULARGE_INTEGER;

typedef LARGE_INTEGER PHYSICAL_ADDRESS, *PPHYSICAL_ADDRESS;

typedef struct _LUID {
    ULONG LowPart;
    LONG HighPart;
} LUID, *PLUID;

#ifndef GUID_DEFINED
#define GUID_DEFINED
typedef struct _GUID {
    ULONG Data1;
    USHORT Data2;
    USHORT Data3;
    UCHAR Data4[8];
} GUID;
#endif
typedef GUID *PGUID;
typedef const GUID *LPCGUID;

typedef struct _UNICODE_STRING {
    USHORT Length;        /* bytes, without a terminator */
    USHORT MaximumLength; /* bytes */
    PWCH Buffer;
} UNICODE_STRING, *PUNICODE_STRING;
typedef const UNICODE_STRING *PCUNICODE_STRING;

typedef struct _STRING {
    USHORT Length;
    USHORT MaximumLength;
    PCHAR Buffer;
} STRING, *PSTRING, ANSI_STRING, *PANSI_STRING;

typedef struct _LIST_ENTRY {
    struct _LIST_ENTRY *Flink;
    struct _LIST_ENTRY *Blink;
} LIST_ENTRY, *PLIST_ENTRY, *PRLIST_ENTRY;

typedef struct _SINGLE_LIST_ENTRY {
    struct _SINGLE_LIST_ENTRY *Next;
} SINGLE_LIST_ENTRY, *PSINGLE_LIST_ENTRY;

typedef struct _RECT {
    LONG left;
    LONG top;
    LONG right;
    LONG bottom;
} RECT, *PRECT;

/* ---- Status codes ---- */
#define NT_SUCCESS(s) (((NTSTATUS)(s)) >= 0)
#define NT_INFORMATION(s) ((((ULONG)(s)) >> 30) == 1)
#define NT_WARNING(s) ((((ULONG)(s)) >> 30) == 2)
#define NT_ERROR(s) ((((ULONG)(s)) >> 30) == 3)

#define STATUS_SUCCESS ((NTSTATUS)0x00000000L)
#define STATUS_WAIT_0 ((NTSTATUS)0x00000000L)
#define STATUS_WAIT_1 ((NTSTATUS)0x00000001L)
#define STATUS_WAIT_2 ((NTSTATUS)0x00000002L)
#define STATUS_WAIT_3 ((NTSTATUS)0x00000003L)
#define STATUS_WAIT_63 ((NTSTATUS)0x0000003FL)
#define STATUS_ABANDONED ((NTSTATUS)0x00000080L)
#define STATUS_USER_APC ((NTSTATUS)0x000000C0L)
#define STATUS_ALREADY_COMPLETE ((NTSTATUS)0x000000FFL)
#define STATUS_ALERTED ((NTSTATUS)0x00000101L)
#define STATUS_TIMEOUT ((NTSTATUS)0x00000102L)
#define STATUS_PENDING ((NTSTATUS)0x00000103L)
#define STATUS_BUFFER_OVERFLOW ((NTSTATUS)0x80000005L)
#define STATUS_NO_MORE_ENTRIES ((NTSTATUS)0x8000001AL)
#define STATUS_UNSUCCESSFUL ((NTSTATUS)0xC0000001L)
#define STATUS_NOT_IMPLEMENTED ((NTSTATUS)0xC0000002L)
#define STATUS_INVALID_HANDLE ((NTSTATUS)0xC0000008L)
#define STATUS_INVALID_PARAMETER ((NTSTATUS)0xC000000DL)
#define STATUS_INVALID_DEVICE_REQUEST ((NTSTATUS)0xC0000010L)
#define STATUS_NO_MEMORY ((NTSTATUS)0xC0000017L)
#define STATUS_ACCESS_DENIED ((NTSTATUS)0xC0000022L)
#define STATUS_BUFFER_TOO_SMALL ((NTSTATUS)0xC0000023L)
#define STATUS_OBJECT_TYPE_MISMATCH ((NTSTATUS)0xC0000024L)
#define STATUS_OBJECT_NAME_NOT_FOUND ((NTSTATUS)0xC0000034L)
#define STATUS_INTEGER_OVERFLOW ((NTSTATUS)0xC0000095L)
#define STATUS_INSUFFICIENT_RESOURCES ((NTSTATUS)0xC000009AL)
#define STATUS_DEVICE_NOT_READY ((NTSTATUS)0xC00000A3L)
#define STATUS_NOT_SUPPORTED ((NTSTATUS)0xC00000BBL)
#define STATUS_INVALID_PARAMETER_1 ((NTSTATUS)0xC00000EFL)
#define STATUS_INVALID_PARAMETER_2 ((NTSTATUS)0xC00000F0L)
#define STATUS_INVALID_PARAMETER_3 ((NTSTATUS)0xC00000F1L)
#define STATUS_INVALID_DEVICE_STATE ((NTSTATUS)0xC0000184L)
#define STATUS_INVALID_BUFFER_SIZE ((NTSTATUS)0xC0000206L)
#define STATUS_NOT_FOUND ((NTSTATUS)0xC0000225L)
#define STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER ((NTSTATUS)0xC01E0001L)
#define STATUS_GRAPHICS_NO_VIDEO_MEMORY ((NTSTATUS)0xC01E0100L)
#define STATUS_GRAPHICS_CANT_LOCK_MEMORY ((NTSTATUS)0xC01E0101L)
#define STATUS_GRAPHICS_ALLOCATION_BUSY ((NTSTATUS)0xC01E0102L)
#define STATUS_GRAPHICS_INVALID_ALLOCATION_HANDLE ((NTSTATUS)0xC01E0114L)
#define STATUS_GRAPHICS_GPU_EXCEPTION_ON_DEVICE ((NTSTATUS)0xC01E0200L)

/* ---- Helper macros ---- */
#ifdef __cplusplus
#define C_ASSERT(e) static_assert(e, #e)
#else
#define C_ASSERT(e) _Static_assert(e, #e)
#endif
#define FIELD_OFFSET(type, field) ((LONG)offsetof(type, field))
#define RTL_FIELD_SIZE(type, field) (sizeof(((type *)0)->field))
#define RTL_SIZEOF_THROUGH_FIELD(type, field) (offsetof(type, field) + RTL_FIELD_SIZE(type, field))
#define RTL_NUMBER_OF(a) (sizeof(a) / sizeof((a)[0]))
#define RTL_NUMBER_OF_V1(a) RTL_NUMBER_OF(a)
#define RTL_NUMBER_OF_V2(a) RTL_NUMBER_OF(a)
#ifndef ARRAYSIZE
#define ARRAYSIZE(a) RTL_NUMBER_OF(a)
#endif
/* offsetof, not Windows' ((type *)0)->field form: UBSan reports the
 * null-pointer arithmetic of the latter. */
#define CONTAINING_RECORD(address, type, field) \
    ((type *)((PCHAR)(address) - offsetof(type, field)))
#define ARGUMENT_PRESENT(p) ((CHAR *)((ULONG_PTR)(p)) != (CHAR *)NULL)
#define UNREFERENCED_PARAMETER(p) ((void)(p))
#define DBG_UNREFERENCED_PARAMETER(p) ((void)(p))
#define DBG_UNREFERENCED_LOCAL_VARIABLE(v) ((void)(v))
#define ALIGN_DOWN_BY(length, alignment) ((ULONG_PTR)(length) & ~((ULONG_PTR)(alignment) - 1))
#define ALIGN_UP_BY(length, alignment) ALIGN_DOWN_BY(((ULONG_PTR)(length) + (alignment) - 1), alignment)
#define ALIGN_DOWN_POINTER_BY(p, alignment) ((PVOID)ALIGN_DOWN_BY(p, alignment))
#define ALIGN_UP_POINTER_BY(p, alignment) ((PVOID)ALIGN_UP_BY(p, alignment))
#if !defined(max) && !defined(NOMINMAX)
#define max(a, b) (((a) > (b)) ? (a) : (b))
#endif
#if !defined(min) && !defined(NOMINMAX)
#define min(a, b) (((a) < (b)) ? (a) : (b))
#endif

#if defined(__cplusplus)
#define PBC_WDK_STATIC_ASSERT static_assert
#else
#define PBC_WDK_STATIC_ASSERT _Static_assert
#endif

PBC_WDK_STATIC_ASSERT(sizeof(ULONG) == 4 && sizeof(LONG) == 4, "ULONG and LONG are 32-bit");
PBC_WDK_STATIC_ASSERT(sizeof(ULONG_PTR) == 8 && sizeof(SIZE_T) == 8, "x86-64");
PBC_WDK_STATIC_ASSERT(sizeof(WCHAR) == 2, "WCHAR is 16-bit");
PBC_WDK_STATIC_ASSERT(sizeof(LARGE_INTEGER) == 8, "LARGE_INTEGER");
PBC_WDK_STATIC_ASSERT(sizeof(UNICODE_STRING) == 16, "UNICODE_STRING");
PBC_WDK_STATIC_ASSERT(offsetof(UNICODE_STRING, Buffer) == 8, "UNICODE_STRING.Buffer");
PBC_WDK_STATIC_ASSERT(sizeof(LIST_ENTRY) == 16, "LIST_ENTRY");
PBC_WDK_STATIC_ASSERT(sizeof(GUID) == 16, "GUID");
PBC_WDK_STATIC_ASSERT(sizeof(LUID) == 8, "LUID");

#ifdef __cplusplus
}
#endif

#endif
