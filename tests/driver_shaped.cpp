/* The driver-shaped translation unit (driver_shaped.c), compiled as C++17:
 * many display drivers are C++. */
#include "driver_shaped.c"
