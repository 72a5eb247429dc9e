/*
 * ntstrsafe.h — the kernel's bounded string functions, with Windows' names
 * and results: the destination is always terminated, truncation returns
 * STATUS_BUFFER_OVERFLOW, a zero or oversized destination returns
 * STATUS_INVALID_PARAMETER. Cb forms count bytes, Cch forms characters.
 *
 * The printf forms format with the C library's vsnprintf, so they take
 * Linux's conversions: %lu reads a 64-bit unsigned long (pass a ULONG with
 * %u), and Windows-only conversions (%ws, %wZ, %I64x) are not understood.
 * There is no wide printf (RtlStringCbPrintfW): Linux's wide formatting
 * works on 32-bit wchar_t, not on 16-bit WCHAR.
 */
#ifndef PBCHECK_WDK_NTSTRSAFE_H
#define PBCHECK_WDK_NTSTRSAFE_H

#include <stdarg.h>
#include <stdio.h>

#include "ntdef.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NTSTRSAFE_MAX_CCH 2147483647
#define NTSTRSAFE_MAX_LENGTH (NTSTRSAFE_MAX_CCH - 1)

typedef char *NTSTRSAFE_PSTR;
typedef const char *NTSTRSAFE_PCSTR;
typedef WCHAR *NTSTRSAFE_PWSTR;
typedef const WCHAR *NTSTRSAFE_PCWSTR;

static inline NTSTATUS RtlStringCchVPrintfA(NTSTRSAFE_PSTR pszDest, size_t cchDest, NTSTRSAFE_PCSTR pszFormat,
                                            va_list argList)
{
    if (cchDest == 0 || cchDest > NTSTRSAFE_MAX_CCH)
        return STATUS_INVALID_PARAMETER;
    int n = vsnprintf(pszDest, cchDest, pszFormat, argList);
    if (n < 0) {
        pszDest[0] = '\0';
        return STATUS_INVALID_PARAMETER;
    }
    return (size_t)n >= cchDest ? STATUS_BUFFER_OVERFLOW : STATUS_SUCCESS;
}

static inline NTSTATUS RtlStringCbVPrintfA(NTSTRSAFE_PSTR pszDest, size_t cbDest, NTSTRSAFE_PCSTR pszFormat,
                                           va_list argList)
{
    return RtlStringCchVPrintfA(pszDest, cbDest, pszFormat, argList);
}

static inline NTSTATUS RtlStringCchPrintfA(NTSTRSAFE_PSTR pszDest, size_t cchDest, NTSTRSAFE_PCSTR pszFormat, ...)
{
    va_list ap;
    va_start(ap, pszFormat);
    NTSTATUS st = RtlStringCchVPrintfA(pszDest, cchDest, pszFormat, ap);
    va_end(ap);
    return st;
}

static inline NTSTATUS RtlStringCbPrintfA(NTSTRSAFE_PSTR pszDest, size_t cbDest, NTSTRSAFE_PCSTR pszFormat, ...)
{
    va_list ap;
    va_start(ap, pszFormat);
    NTSTATUS st = RtlStringCchVPrintfA(pszDest, cbDest, pszFormat, ap);
    va_end(ap);
    return st;
}

/* Copies or appends at most cchSrc characters of pszSrc at pszDest + at. */
static inline NTSTATUS pbc_wdk_str_put_a(NTSTRSAFE_PSTR pszDest, size_t cchDest, size_t at,
                                         NTSTRSAFE_PCSTR pszSrc, size_t cchSrc)
{
    size_t i = 0;
    while (at + i + 1 < cchDest && i < cchSrc && pszSrc[i] != '\0') {
        pszDest[at + i] = pszSrc[i];
        i++;
    }
    pszDest[at + i] = '\0';
    return i < cchSrc && pszSrc[i] != '\0' ? STATUS_BUFFER_OVERFLOW : STATUS_SUCCESS;
}

static inline NTSTATUS pbc_wdk_str_put_w(NTSTRSAFE_PWSTR pszDest, size_t cchDest, size_t at,
                                         NTSTRSAFE_PCWSTR pszSrc, size_t cchSrc)
{
    size_t i = 0;
    while (at + i + 1 < cchDest && i < cchSrc && pszSrc[i] != 0) {
        pszDest[at + i] = pszSrc[i];
        i++;
    }
    pszDest[at + i] = 0;
    return i < cchSrc && pszSrc[i] != 0 ? STATUS_BUFFER_OVERFLOW : STATUS_SUCCESS;
}

static inline NTSTATUS RtlStringCchLengthA(NTSTRSAFE_PCSTR psz, size_t cchMax, size_t *pcchLength)
{
    size_t n = 0;
    if (psz == NULL || cchMax > NTSTRSAFE_MAX_CCH)
        goto invalid;
    while (n < cchMax && psz[n] != '\0')
        n++;
    if (n == cchMax)
        goto invalid;
    if (pcchLength)
        *pcchLength = n;
    return STATUS_SUCCESS;
invalid:
    if (pcchLength)
        *pcchLength = 0;
    return STATUS_INVALID_PARAMETER;
}

static inline NTSTATUS RtlStringCchLengthW(NTSTRSAFE_PCWSTR psz, size_t cchMax, size_t *pcchLength)
{
    size_t n = 0;
    if (psz == NULL || cchMax > NTSTRSAFE_MAX_CCH)
        goto invalid;
    while (n < cchMax && psz[n] != 0)
        n++;
    if (n == cchMax)
        goto invalid;
    if (pcchLength)
        *pcchLength = n;
    return STATUS_SUCCESS;
invalid:
    if (pcchLength)
        *pcchLength = 0;
    return STATUS_INVALID_PARAMETER;
}

static inline NTSTATUS RtlStringCbLengthA(NTSTRSAFE_PCSTR psz, size_t cbMax, size_t *pcbLength)
{
    return RtlStringCchLengthA(psz, cbMax, pcbLength);
}

static inline NTSTATUS RtlStringCbLengthW(NTSTRSAFE_PCWSTR psz, size_t cbMax, size_t *pcbLength)
{
    size_t cch = 0;
    NTSTATUS st = RtlStringCchLengthW(psz, cbMax / sizeof(WCHAR), &cch);
    if (pcbLength)
        *pcbLength = cch * sizeof(WCHAR);
    return st;
}

static inline NTSTATUS RtlStringCchCopyNA(NTSTRSAFE_PSTR pszDest, size_t cchDest, NTSTRSAFE_PCSTR pszSrc,
                                          size_t cchToCopy)
{
    if (cchDest == 0 || cchDest > NTSTRSAFE_MAX_CCH)
        return STATUS_INVALID_PARAMETER;
    return pbc_wdk_str_put_a(pszDest, cchDest, 0, pszSrc, cchToCopy);
}

static inline NTSTATUS RtlStringCchCopyA(NTSTRSAFE_PSTR pszDest, size_t cchDest, NTSTRSAFE_PCSTR pszSrc)
{
    return RtlStringCchCopyNA(pszDest, cchDest, pszSrc, NTSTRSAFE_MAX_CCH);
}

static inline NTSTATUS RtlStringCbCopyA(NTSTRSAFE_PSTR pszDest, size_t cbDest, NTSTRSAFE_PCSTR pszSrc)
{
    return RtlStringCchCopyA(pszDest, cbDest, pszSrc);
}

static inline NTSTATUS RtlStringCbCopyNA(NTSTRSAFE_PSTR pszDest, size_t cbDest, NTSTRSAFE_PCSTR pszSrc,
                                         size_t cbToCopy)
{
    return RtlStringCchCopyNA(pszDest, cbDest, pszSrc, cbToCopy);
}

static inline NTSTATUS RtlStringCchCopyNW(NTSTRSAFE_PWSTR pszDest, size_t cchDest, NTSTRSAFE_PCWSTR pszSrc,
                                          size_t cchToCopy)
{
    if (cchDest == 0 || cchDest > NTSTRSAFE_MAX_CCH)
        return STATUS_INVALID_PARAMETER;
    return pbc_wdk_str_put_w(pszDest, cchDest, 0, pszSrc, cchToCopy);
}

static inline NTSTATUS RtlStringCchCopyW(NTSTRSAFE_PWSTR pszDest, size_t cchDest, NTSTRSAFE_PCWSTR pszSrc)
{
    return RtlStringCchCopyNW(pszDest, cchDest, pszSrc, NTSTRSAFE_MAX_CCH);
}

static inline NTSTATUS RtlStringCbCopyW(NTSTRSAFE_PWSTR pszDest, size_t cbDest, NTSTRSAFE_PCWSTR pszSrc)
{
    return RtlStringCchCopyW(pszDest, cbDest / sizeof(WCHAR), pszSrc);
}

static inline NTSTATUS RtlStringCchCatA(NTSTRSAFE_PSTR pszDest, size_t cchDest, NTSTRSAFE_PCSTR pszSrc)
{
    size_t len = 0;
    if (cchDest == 0 || cchDest > NTSTRSAFE_MAX_CCH || !NT_SUCCESS(RtlStringCchLengthA(pszDest, cchDest, &len)))
        return STATUS_INVALID_PARAMETER;
    return pbc_wdk_str_put_a(pszDest, cchDest, len, pszSrc, NTSTRSAFE_MAX_CCH);
}

static inline NTSTATUS RtlStringCbCatA(NTSTRSAFE_PSTR pszDest, size_t cbDest, NTSTRSAFE_PCSTR pszSrc)
{
    return RtlStringCchCatA(pszDest, cbDest, pszSrc);
}

static inline NTSTATUS RtlStringCchCatW(NTSTRSAFE_PWSTR pszDest, size_t cchDest, NTSTRSAFE_PCWSTR pszSrc)
{
    size_t len = 0;
    if (cchDest == 0 || cchDest > NTSTRSAFE_MAX_CCH || !NT_SUCCESS(RtlStringCchLengthW(pszDest, cchDest, &len)))
        return STATUS_INVALID_PARAMETER;
    return pbc_wdk_str_put_w(pszDest, cchDest, len, pszSrc, NTSTRSAFE_MAX_CCH);
}

static inline NTSTATUS RtlStringCbCatW(NTSTRSAFE_PWSTR pszDest, size_t cbDest, NTSTRSAFE_PCWSTR pszSrc)
{
    return RtlStringCchCatW(pszDest, cbDest / sizeof(WCHAR), pszSrc);
}

#ifdef __cplusplus
}
#endif

#endif
