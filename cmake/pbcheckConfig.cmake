# find_package(pbcheck) for builder authors: the installed pbcheck
# executable, its public headers (target.h, isa.h and the WDK shims) and
# pbcheck_add_target() (pbcheckFunctions.cmake). Relocatable: every path
# is found from this file's place in PREFIX/lib/cmake/pbcheck/.
get_filename_component(_pbcheck_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)

set(pbcheck_INCLUDE_DIR "${_pbcheck_prefix}/include")
set(pbcheck_EXECUTABLE "${_pbcheck_prefix}/bin/pbcheck")
if(NOT EXISTS "${pbcheck_EXECUTABLE}" OR NOT EXISTS "${pbcheck_INCLUDE_DIR}/pbcheck/target.h")
  set(pbcheck_FOUND FALSE)
  set(pbcheck_NOT_FOUND_MESSAGE "pbcheck under ${_pbcheck_prefix} is incomplete: bin/pbcheck or include/pbcheck/target.h is missing")
  return()
endif()

# The headers a builder compiles against. <pbcheck/wdk/ntddk.h> and the
# Windows spelling <ntddk.h>, <d3dkmddi.h>, ... both work.
if(NOT TARGET pbcheck::headers)
  add_library(pbcheck::headers INTERFACE IMPORTED)
  set_target_properties(pbcheck::headers PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${pbcheck_INCLUDE_DIR};${pbcheck_INCLUDE_DIR}/pbcheck/wdk")
endif()
if(NOT TARGET pbcheck::pbcheck)
  add_executable(pbcheck::pbcheck IMPORTED)
  set_target_properties(pbcheck::pbcheck PROPERTIES IMPORTED_LOCATION "${pbcheck_EXECUTABLE}")
endif()

# pbcheck_FUZZ_ENGINE (none, libfuzzer or afl) and, for a fuzz build,
# pbcheck_FUZZ_EXECUTABLE: the differential fuzz binary for libraries.
include("${CMAKE_CURRENT_LIST_DIR}/pbcheckFuzz.cmake")
set(pbcheck_FUZZ_EXECUTABLE "${_pbcheck_prefix}/${_pbcheck_fuzz_relative}")
if(NOT EXISTS "${pbcheck_FUZZ_EXECUTABLE}")
  set(pbcheck_FUZZ_EXECUTABLE "")
endif()
unset(_pbcheck_fuzz_relative)
set(pbcheck_KIT_LIBRARIES)
foreach(_pbcheck_lib ${_pbcheck_kit_relative})
  list(APPEND pbcheck_KIT_LIBRARIES "${_pbcheck_prefix}/${_pbcheck_lib}")
endforeach()
set(pbcheck_KIT_DIR "${_pbcheck_prefix}/${_pbcheck_kit_share}")
set(pbcheck_KIT_MUTATOR "${_pbcheck_prefix}/${_pbcheck_kit_mutator}")
# The seed corpus (text scenarios) and the installed templates.
set(pbcheck_SEEDS_DIR "${_pbcheck_prefix}/share/pbcheck/seeds")
set(pbcheck_SHARE_DIR "${_pbcheck_prefix}/share/pbcheck")
unset(_pbcheck_kit_relative)
unset(_pbcheck_kit_share)
unset(_pbcheck_kit_mutator)
unset(_pbcheck_lib)

include("${CMAKE_CURRENT_LIST_DIR}/pbcheckFunctions.cmake")
unset(_pbcheck_prefix)
