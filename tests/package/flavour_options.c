/*
 * Compiled into example_cpu by tests/package/CMakeLists.txt: it builds only
 * where pbcheck_add_target's INCLUDE_DIRS, COMPILE_DEFINITIONS and
 * COMPILE_OPTIONS, and an option set later on the target, reached the
 * build (libNAME.so, libNAME_cov.so, NAME_fuzzer; NAME_afl_fuzz takes
 * what pbcheck_add_target was given, not what was set later).
 */
#include "pkg_extra.h" /* only in INCLUDE_DIRS */

#ifndef PKG_BY_DEFINITION
#error "COMPILE_DEFINITIONS did not reach this build"
#endif
#ifndef PKG_BY_OPTION
#error "COMPILE_OPTIONS did not reach this build"
#endif
#if !defined(PKG_SET_LATER) && !defined(__AFL_COMPILER)
#error "target_compile_options(example_cpu ...) did not reach this build"
#endif

typedef pkg_extra_type pkg_flavour_options_seen;
