# pbcheck_add_target(NAME SOURCES src... [INCLUDE_DIRS dir...]
#                    [COMPILE_DEFINITIONS def...] [CASE_INSENSITIVE_INCLUDES]
#                    [NO_CERTIFY_TEST] [CERTIFY_ARGS arg...] [FUZZ_RUNS n])
#
# Builds the shared library libNAME.so from a vendor's builder sources
# against the installed pbcheck headers, ready for
# `pbcheck run|certify|disasm|replay --target libNAME.so`. The library
# links no pbcheck library: the kernel services it calls (Mm*, Ke*,
# READ/WRITE_REGISTER_*, ...) resolve at load time from the pbcheck
# executable. Symbols are hidden except what the sources mark with default
# visibility (pbc_target_get).
#
# Unless NO_CERTIFY_TEST, adds the CTest test certify_NAME:
#   pbcheck certify --target libNAME.so --quick --out BINARY_DIR/certify_NAME
# (CERTIFY_ARGS replaces --quick, e.g. CERTIFY_ARGS --time 60). Each run
# writes a new run folder there; BINARY_DIR/certify_NAME/latest/index.html
# is the last run's report.
#
# When the installed pbcheck is a libFuzzer build (pbcheck_FUZZ_ENGINE
# libfuzzer), also builds libNAME_fuzz.so (with clang: the same sources
# with libFuzzer's coverage instrumentation, -fsanitize=fuzzer-no-link) and
# adds the CTest test fuzz_NAME (label fuzz): the differential fuzz binary
# on libNAME_fuzz.so for FUZZ_RUNS inputs (default 200); a finding is a
# crash, saved as crash-* in BINARY_DIR/fuzz_NAME/.
# For long runs start the binary (pbcheck_FUZZ_EXECUTABLE) yourself, with
# PBCHECK_TARGET=libNAME.so in its environment.
#
# When AFL++ is installed (afl-clang-fast on PATH), also builds, in
# BINARY_DIR: libNAME_afl.so, the same sources instrumented by
# afl-clang-fast, and NAME_afl_fuzz, the differential target linked from
# the package's fuzz kit that loads it (target NAME_afl). With the option
# PBCHECK_AFL ON they are built by default and the CTest test afl_NAME
# (label fuzz) runs one input through the binary. Fuzz with
#   afl-fuzz -i SEEDS -o OUT -m none -- BINARY_DIR/NAME_afl_fuzz
# (binary scenarios: `pbcheck encode` turns .pbs seeds into them). The
# AFL++ library is compiled from SOURCES, INCLUDE_DIRS and
# COMPILE_DEFINITIONS only, with afl-clang-fast as a C compiler: options
# given later to the NAME target (target_compile_options, ...) and C++
# sources do not reach it.
#
# Link-time truth: after libNAME.so is linked, every symbol it needs must be
# defined by itself, by the libraries it links, or by pbcheck's exported
# kernel services (harness/kernel/exports.list, as the installed pbcheck
# executable exports them). Otherwise the build fails naming the missing
# symbols, and libNAME.so is removed: a kernel call the glue forgot to stub
# (KeFooBar, DxgkInitialize, ...) fails here rather than when pbcheck loads
# the library. The check links a throwaway program against libNAME.so and
# a stub of the exported services with --no-allow-shlib-undefined, in
# BINARY_DIR/NAME_link_check/.
#
# CASE_INSENSITIVE_INCLUDES: Windows file systems ignore case, so driver
# sources often say #include "VC4Ddi.h" for Vc4Ddi.h, or <Dispmprt.h>.
# With this option the sources and the headers in INCLUDE_DIRS are scanned
# at configure time, and every quoted or angled include that names an
# existing header (of INCLUDE_DIRS or pbcheck's WDK headers) only with
# different case gets a forwarding header of that spelling in
# BINARY_DIR/NAME_case_includes/, searched after INCLUDE_DIRS.
include_guard(GLOBAL)

# Script mode: the link check itself, run after each link of a target
# (cmake -DPBCHECK_LINK_CHECK=ON -DLIBRARY=... -P pbcheckFunctions.cmake).
if(CMAKE_SCRIPT_MODE_FILE AND PBCHECK_LINK_CHECK)
  if(NOT NM OR NOT EXISTS "${EXECUTABLE}")
    message(WARNING "pbcheck: no nm or no pbcheck executable: the link check of ${LIBRARY} is skipped")
    return()
  endif()
  file(MAKE_DIRECTORY "${WORK_DIR}")
  set(stub "${WORK_DIR}/libpbcheck_kernel_services.so")
  if(NOT EXISTS "${stub}" OR "${EXECUTABLE}" IS_NEWER_THAN "${stub}")
    execute_process(COMMAND "${NM}" -D --defined-only "${EXECUTABLE}" OUTPUT_VARIABLE syms RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "pbcheck: '${NM} -D ${EXECUTABLE}' failed: cannot list the kernel services")
    endif()
    string(REGEX MATCHALL "[0-9a-fA-F]+ [A-Z] [A-Za-z][A-Za-z0-9_]*" lines "${syms}")
    set(text "/* The symbols ${EXECUTABLE} exports to targets. */\n")
    foreach(line ${lines})
      string(REGEX REPLACE "^[0-9a-fA-F]+ [A-Z] " "" sym "${line}")
      string(APPEND text "void ${sym}(void) {}\n")
    endforeach()
    file(WRITE "${WORK_DIR}/services_stub.c" "${text}")
    execute_process(COMMAND "${CC}" -x c -shared -fPIC -w "${WORK_DIR}/services_stub.c" -o "${stub}"
                    RESULT_VARIABLE rc ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "pbcheck: cannot build the kernel-services stub for the link check:\n${err}")
    endif()
  endif()
  file(WRITE "${WORK_DIR}/main.c" "int main(void) { return 0; }\n")
  get_filename_component(libdir "${LIBRARY}" DIRECTORY)
  execute_process(COMMAND "${CC}" -x c "${WORK_DIR}/main.c" -x none -o "${WORK_DIR}/check" -Wl,--no-as-needed
                          "${LIBRARY}" "${stub}" -Wl,--no-allow-shlib-undefined "-Wl,-rpath-link,${libdir}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    set(missing)
    string(REGEX MATCHALL "undefined reference to `[^']+'" refs "${err}")
    foreach(ref ${refs})
      string(REGEX REPLACE "undefined reference to `([^']+)'" "\\1" sym "${ref}")
      list(APPEND missing "${sym}")
    endforeach()
    string(REGEX MATCHALL "(undefined symbol|--no-allow-shlib-undefined): [^\n]+" refs "${err}")
    foreach(ref ${refs})
      string(REGEX REPLACE "^[^:]+: " "" sym "${ref}")
      list(APPEND missing "${sym}")
    endforeach()
    list(REMOVE_DUPLICATES missing)
    file(REMOVE "${LIBRARY}")
    if(missing)
      list(JOIN missing ", " names)
      message(FATAL_ERROR "pbcheck_add_target: ${LIBRARY} needs symbols that neither it nor pbcheck's kernel "
                          "services define: ${names}\nDefine them in the target's glue (a stub for what lies "
                          "outside the paging path), or leave out the source that calls them. "
                          "docs/writing-a-target.md lists the services pbcheck serves.")
    endif()
    message(FATAL_ERROR "pbcheck_add_target: the link check of ${LIBRARY} failed:\n${err}")
  endif()
  return()
endif()
set(_PBCHECK_FUNCTIONS_FILE "${CMAKE_CURRENT_LIST_FILE}")

# _pbcheck_case_includes(NAME OUT_VAR SOURCES file... DIRS dir...): sets
# OUT_VAR to the folder of generated forwarding headers.
function(_pbcheck_case_includes name out_dir)
  cmake_parse_arguments(PARSE_ARGV 2 arg "" "" "SOURCES;DIRS")
  set(dirs ${arg_DIRS})
  set(gen "${CMAKE_CURRENT_BINARY_DIR}/${name}_case_includes")
  file(REMOVE_RECURSE "${gen}")
  file(MAKE_DIRECTORY "${gen}")
  # Every header we could forward to, by lower-case path relative to its dir.
  set(scan)
  foreach(dir ${dirs})
    file(GLOB_RECURSE headers RELATIVE "${dir}" "${dir}/*.h" "${dir}/*.H" "${dir}/*.hpp" "${dir}/*.inl")
    foreach(h ${headers})
      string(TOLOWER "${h}" key)
      string(MAKE_C_IDENTIFIER "${key}" id)
      if(NOT DEFINED _pbc_case_${id})
        set(_pbc_case_${id} "${dir}/${h}")
      endif()
      list(APPEND scan "${dir}/${h}")
    endforeach()
  endforeach()
  list(APPEND scan ${arg_SOURCES})
  foreach(file ${scan})
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${file}")
    file(STRINGS "${file}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*[\"<][^\">]+[\">]")
    foreach(line ${lines})
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*[\"<]([^\">]+)[\">].*" "\\1" inc "${line}")
      get_filename_component(here "${file}" DIRECTORY)
      set(found FALSE)
      foreach(dir "${here}" ${dirs})
        if(EXISTS "${dir}/${inc}")
          set(found TRUE)
        endif()
      endforeach()
      string(TOLOWER "${inc}" key)
      string(MAKE_C_IDENTIFIER "${key}" id)
      if(NOT found AND DEFINED _pbc_case_${id} AND NOT EXISTS "${gen}/${inc}")
        file(WRITE "${gen}/${inc}"
             "/* Generated by pbcheck_add_target(CASE_INSENSITIVE_INCLUDES): \"${inc}\" is spelled differently on disk. */\n#include \"${_pbc_case_${id}}\"\n")
      endif()
    endforeach()
  endforeach()
  set(${out_dir} "${gen}" PARENT_SCOPE)
endfunction()

# _pbcheck_add_afl(NAME SOURCES ... INCLUDE_DIRS ... DEFINITIONS ...): the
# AFL++ library and fuzz binary, when afl-clang-fast and the kit exist.
function(_pbcheck_add_afl name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "SOURCES;INCLUDE_DIRS;DEFINITIONS")
  find_program(PBCHECK_AFL_CC afl-clang-fast)
  option(PBCHECK_AFL "Build the AFL++ fuzz binaries of pbcheck_add_target by default" OFF)
  if(NOT PBCHECK_AFL_CC OR NOT pbcheck_KIT_LIBRARIES)
    return()
  endif()
  foreach(lib ${pbcheck_KIT_LIBRARIES})
    if(NOT EXISTS "${lib}")
      return()
    endif()
  endforeach()
  set(flags -O1 -g -fPIC ${pbcheck_KIT_SANITIZE} -D_POSIX_C_SOURCE=200809L)
  foreach(dir ${arg_INCLUDE_DIRS} "${pbcheck_INCLUDE_DIR}" "${pbcheck_INCLUDE_DIR}/pbcheck/wdk")
    list(APPEND flags "-I${dir}")
  endforeach()
  foreach(def ${arg_DEFINITIONS})
    list(APPEND flags "-D${def}")
  endforeach()
  set(lib "${CMAKE_CURRENT_BINARY_DIR}/lib${name}_afl.so")
  set(exe "${CMAKE_CURRENT_BINARY_DIR}/${name}_afl_fuzz")
  add_custom_command(OUTPUT "${lib}"
    COMMAND "${PBCHECK_AFL_CC}" ${flags} -shared -fvisibility=hidden ${arg_SOURCES} -o "${lib}"
    DEPENDS ${arg_SOURCES}
    COMMENT "AFL++-instrumented lib${name}_afl.so" VERBATIM)
  add_custom_command(OUTPUT "${exe}"
    COMMAND "${PBCHECK_AFL_CC}" ${flags} "-DPBC_AFL_TARGET_LIB=\"${lib}\"" "${pbcheck_KIT_DIR}/afl_main.c"
            ${pbcheck_KIT_LIBRARIES} ${pbcheck_KIT_LINK} "-Wl,--dynamic-list=${pbcheck_KIT_DIR}/exports.list"
            # Loaded at start, before AFL++'s fork server: its edges would
            # not count if the harness's dlopen loaded it first.
            -Wl,--no-as-needed "${lib}" "-Wl,-rpath,${CMAKE_CURRENT_BINARY_DIR}"
            -o "${exe}"
    DEPENDS ${pbcheck_KIT_LIBRARIES} "${pbcheck_KIT_DIR}/afl_main.c" "${lib}"
    COMMENT "AFL++ fuzz binary ${name}_afl_fuzz" VERBATIM)
  if(PBCHECK_AFL)
    add_custom_target(${name}_afl ALL DEPENDS "${lib}" "${exe}")
  else()
    add_custom_target(${name}_afl DEPENDS "${lib}" "${exe}")
  endif()
  # With PBCHECK_AFL, one input through the binary (any bytes are a valid
  # scenario): opt-in, so a vendor's CI does not depend on AFL++.
  if(PBCHECK_AFL)
    set(input "${CMAKE_CURRENT_BINARY_DIR}/${name}_afl_input")
    file(WRITE "${input}" "pbcheck afl smoke input: a few bytes the decoder turns into a scenario")
    add_test(NAME afl_${name} COMMAND "${exe}" "${input}")
    set_tests_properties(afl_${name} PROPERTIES LABELS fuzz)
  endif()
  set(PBCHECK_AFL_FOUND TRUE PARENT_SCOPE)
endfunction()

function(pbcheck_add_target name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "CASE_INSENSITIVE_INCLUDES;NO_CERTIFY_TEST" "FUZZ_RUNS"
                        "SOURCES;INCLUDE_DIRS;COMPILE_DEFINITIONS;CERTIFY_ARGS")
  if(NOT arg_SOURCES)
    message(FATAL_ERROR "pbcheck_add_target(${name}): SOURCES is required")
  endif()
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "pbcheck_add_target(${name}): unknown arguments ${arg_UNPARSED_ARGUMENTS}")
  endif()
  set(sources)
  foreach(src ${arg_SOURCES})
    get_filename_component(abs "${src}" ABSOLUTE)
    list(APPEND sources "${abs}")
  endforeach()
  set(include_dirs)
  foreach(dir ${arg_INCLUDE_DIRS})
    get_filename_component(abs "${dir}" ABSOLUTE)
    list(APPEND include_dirs "${abs}")
  endforeach()

  add_library(${name} SHARED ${sources})
  target_include_directories(${name} PRIVATE ${include_dirs})
  target_link_libraries(${name} PRIVATE pbcheck::headers)
  target_compile_definitions(${name} PRIVATE ${arg_COMPILE_DEFINITIONS})
  set_target_properties(${name} PROPERTIES PREFIX "lib" C_VISIBILITY_PRESET hidden
                        CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
  # The link check (see the top of this file). The compiler drives the
  # link: C's if the project has one, else C++'s.
  set(check_cc "${CMAKE_C_COMPILER}")
  if(NOT check_cc)
    set(check_cc "${CMAKE_CXX_COMPILER}")
  endif()
  add_custom_command(TARGET ${name} POST_BUILD
    COMMAND "${CMAKE_COMMAND}" -DPBCHECK_LINK_CHECK=ON "-DLIBRARY=$<TARGET_FILE:${name}>"
            "-DEXECUTABLE=${pbcheck_EXECUTABLE}" "-DCC=${check_cc}" "-DNM=${CMAKE_NM}"
            "-DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/${name}_link_check" -P "${_PBCHECK_FUNCTIONS_FILE}"
    COMMENT "Checking that lib${name}.so needs only what pbcheck's kernel services define" VERBATIM)

  if(arg_CASE_INSENSITIVE_INCLUDES)
    # pbcheck's WDK headers too: sources say Dispmprt.h or NTDDK.h.
    _pbcheck_case_includes(${name} case_dir SOURCES ${sources}
                           DIRS ${include_dirs} "${pbcheck_INCLUDE_DIR}/pbcheck/wdk")
    target_include_directories(${name} PRIVATE "${case_dir}")
  endif()

  if(NOT arg_NO_CERTIFY_TEST)
    set(certify_args --quick)
    if(arg_CERTIFY_ARGS)
      set(certify_args ${arg_CERTIFY_ARGS})
    endif()
    add_test(NAME certify_${name}
             COMMAND pbcheck::pbcheck certify --target $<TARGET_FILE:${name}> ${certify_args}
                     --out "${CMAKE_CURRENT_BINARY_DIR}/certify_${name}")
    set_tests_properties(certify_${name} PROPERTIES LABELS certify)
  endif()

  _pbcheck_add_afl(${name} SOURCES ${sources} INCLUDE_DIRS ${include_dirs} ${case_dir}
                   DEFINITIONS ${arg_COMPILE_DEFINITIONS})

  if(pbcheck_FUZZ_ENGINE STREQUAL "libfuzzer" AND pbcheck_FUZZ_EXECUTABLE)
    set(runs 200)
    if(arg_FUZZ_RUNS)
      set(runs ${arg_FUZZ_RUNS})
    endif()
    set(dir "${CMAKE_CURRENT_BINARY_DIR}/fuzz_${name}")
    file(MAKE_DIRECTORY "${dir}")
    # libNAME_fuzz.so: the same builder with libFuzzer's coverage
    # instrumentation, so the fuzzer is guided by the builder's own edges
    # (libNAME.so stays plain: pbcheck itself links no libFuzzer).
    set(fuzz_lib ${name})
    if(CMAKE_C_COMPILER_ID MATCHES "Clang")
      set(fuzz_lib ${name}_fuzz)
      add_library(${fuzz_lib} SHARED ${sources})
      target_include_directories(${fuzz_lib} PRIVATE ${include_dirs} ${case_dir})
      target_link_libraries(${fuzz_lib} PRIVATE pbcheck::headers)
      target_compile_definitions(${fuzz_lib} PRIVATE ${arg_COMPILE_DEFINITIONS})
      target_compile_options(${fuzz_lib} PRIVATE -fsanitize=fuzzer-no-link)
      set_target_properties(${fuzz_lib} PROPERTIES PREFIX "lib" C_VISIBILITY_PRESET hidden
                            CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
    endif()
    add_test(NAME fuzz_${name}
             COMMAND ${CMAKE_COMMAND} -E env PBCHECK_TARGET=$<TARGET_FILE:${fuzz_lib}>
                     "${pbcheck_FUZZ_EXECUTABLE}" -runs=${runs} -seed=1 -artifact_prefix=${dir}/
             WORKING_DIRECTORY "${dir}")
    set_tests_properties(fuzz_${name} PROPERTIES LABELS fuzz)
  endif()
endfunction()
