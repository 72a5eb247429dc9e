/*
 * Driver strings as Windows sources write them: L"..." into WCHAR arrays
 * and UNICODE_STRINGs. They compile because pbcheck_add_target makes
 * wchar_t 16-bit (-fshort-wchar), so WCHAR is wchar_t as on Windows.
 */
#include <ntddk.h>

static const WCHAR exgpu_device_name[] = L"\\Device\\ExGpu";
static UNICODE_STRING exgpu_service_key = RTL_CONSTANT_STRING(L"\\Registry\\Machine\\System\\ExGpu");

/* The n-th character of the device name, and the key's length in bytes:
 * 2 per character, as on Windows. */
WCHAR exgpu_name_char(ULONG n) { return n < RTL_NUMBER_OF(exgpu_device_name) ? exgpu_device_name[n] : 0; }
USHORT exgpu_key_bytes(void) { return exgpu_service_key.Length; }
