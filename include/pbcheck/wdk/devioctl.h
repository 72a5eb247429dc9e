/* devioctl.h — I/O control codes, with Windows' names and values. */
#ifndef PBCHECK_WDK_DEVIOCTL_H
#define PBCHECK_WDK_DEVIOCTL_H

#ifndef _DEVIOCTL_
#define _DEVIOCTL_
#endif

typedef unsigned int DEVICE_TYPE;

#define FILE_DEVICE_UNKNOWN 0x00000022u
#define FILE_DEVICE_VIDEO 0x00000023u

#define CTL_CODE(DeviceType, Function, Method, Access) \
    (((DeviceType) << 16) | ((Access) << 14) | ((Function) << 2) | (Method))
#define DEVICE_TYPE_FROM_CTL_CODE(code) (((unsigned int)(code) & 0xffff0000u) >> 16)
#define METHOD_FROM_CTL_CODE(code) ((unsigned int)(code) & 3u)

#define METHOD_BUFFERED 0
#define METHOD_IN_DIRECT 1
#define METHOD_OUT_DIRECT 2
#define METHOD_NEITHER 3
#define METHOD_DIRECT_TO_HARDWARE METHOD_IN_DIRECT
#define METHOD_DIRECT_FROM_HARDWARE METHOD_OUT_DIRECT

#define FILE_ANY_ACCESS 0
#define FILE_SPECIAL_ACCESS FILE_ANY_ACCESS
#define FILE_READ_ACCESS 0x0001
#define FILE_WRITE_ACCESS 0x0002

#endif
