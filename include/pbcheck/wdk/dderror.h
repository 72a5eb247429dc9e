/* dderror.h — the Win32 error codes display and video miniport drivers
 * return, with Windows' values. */
#ifndef PBCHECK_WDK_DDERROR_H
#define PBCHECK_WDK_DDERROR_H

#define NO_ERROR 0L
#define ERROR_INVALID_FUNCTION 1L
#define ERROR_NOT_ENOUGH_MEMORY 8L
#define ERROR_DEV_NOT_EXIST 55L
#define ERROR_INVALID_PARAMETER 87L
#define ERROR_INSUFFICIENT_BUFFER 122L
#define ERROR_MORE_DATA 234L
#define ERROR_NO_MORE_ITEMS 259L
#define ERROR_IO_PENDING 997L

#endif
