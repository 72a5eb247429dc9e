/* wdk_base_types.c compiled as C++17. */
#include "wdk_base_types.c"
