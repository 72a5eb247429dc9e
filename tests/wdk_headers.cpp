/* The same checks as wdk_headers.c, compiled as C++17: driver sources are
 * often C++. */
#include "wdk_headers.c"
