# pbcheck_add_target(NAME SOURCES src... [INCLUDE_DIRS dir...]
#                    [COMPILE_DEFINITIONS def...] [COMPILE_OPTIONS opt...]
#                    [CASE_INSENSITIVE_INCLUDES] [NO_CERTIFY_TEST]
#                    [CERTIFY_ARGS arg...] [FUZZ_RUNS n])
#
# INCLUDE_DIRS, COMPILE_DEFINITIONS and COMPILE_OPTIONS apply to every
# build of the sources: libNAME.so, libNAME_cov.so, NAME_fuzzer and
# NAME_afl_fuzz. Include folders, definitions and options set later on the
# NAME target (target_compile_options(NAME ...)) reach libNAME_cov.so and
# NAME_fuzzer too, not NAME_afl_fuzz.
#
# Loud toolchains: a compiler that cannot build NAME_fuzzer (libFuzzer) or
# libNAME_cov.so (clang's source-based coverage) leaves them out with a
# configure-time warning naming the fix (clang, and Debian's
# libclang-rt-14-dev). With no CMAKE_BUILD_TYPE and no -g in CMAKE_C_FLAGS,
# every build of the sources gets -g, so findings name file:line.
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
# Fuzzing (docs/ci-fuzzing.md). With clang, also builds NAME_fuzzer: a
# libFuzzer binary with the builder's sources linked in (compiled with
# -fsanitize=fuzzer-no-link, the harness from the package's fuzz kit), so
# it needs no environment variable and no library beside it (the kit
# links no jansson or libxml2 and xxHash statically: only libc and the
# sanitizer runtimes, so it starts in a runner image); next to it
# NAME_fuzzer.dict, NAME_fuzzer.options and NAME_fuzzer_seed_corpus.zip
# (pbcheck's seeds laid onto the adapter the builder declares, also as
# the folder NAME_fuzzer_seeds/), and the CTest test fuzz_NAME (label fuzz):
# FUZZ_RUNS inputs (default 200) from the seeds; a finding is a crash saved
# as crash-* in BINARY_DIR/fuzz_NAME/. Under OSS-Fuzz or ClusterFuzzLite
# (LIB_FUZZING_ENGINE in the environment at configure time) the binary is
# compiled with CFLAGS alone and linked with $LIB_FUZZING_ENGINE, libFuzzer
# or AFL++. The target pbcheck_fuzzers builds every NAME_fuzzer.
# `pbcheck fuzz --target BINARY_DIR/libNAME.so` runs it.
#
# When AFL++ is installed (afl-clang-fast on PATH), also builds
# NAME_afl_fuzz (target NAME_afl): the builder's sources instrumented by
# afl-clang-fast and linked with the kit's AFL++ driver (persistent mode);
# the harness itself is not instrumented. With the option PBCHECK_AFL ON it
# is built by default and the CTest test afl_NAME (label fuzz) runs one
# input through it. `pbcheck fuzz --engine afl --target
# BINARY_DIR/libNAME.so` runs it, or afl-fuzz -i BINARY_DIR/NAME_fuzzer_seeds
# -o OUT -m none -- BINARY_DIR/NAME_afl_fuzz. It is compiled from SOURCES,
# INCLUDE_DIRS, COMPILE_DEFINITIONS and COMPILE_OPTIONS only, with afl-clang-fast as a C
# compiler: options given later to the NAME target and C++ sources do not
# reach it.
#
# Coverage: with clang, also builds libNAME_cov.so, the builder with
# source-based coverage (-fprofile-instr-generate -fcoverage-mapping):
# `pbcheck certify|fuzz --coverage --target libNAME.so` runs it and
# reports the line, branch and function coverage of SOURCES.
#
# Every build of the sources gets PBC_TARGET_NAME="NAME": a template that
# says .name = PBC_TARGET_NAME (targets/examples/) is renamed here alone.
#
# Every build of the sources is compiled with -fshort-wchar: wchar_t is
# 16-bit as on Windows, so the WDK headers' WCHAR is wchar_t and a driver's
# L"..." strings fill WCHAR arrays and UNICODE_STRINGs unchanged. The C
# library's wide functions (wcslen, wcscpy, swprintf, std::wstring...) are
# built for a 32-bit wchar_t and must not be called on those strings
# (docs/wdk-headers.md, "WCHAR strings").
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

# Windows' wchar_t, for every flavour of a target's sources (see the top).
set(_PBCHECK_TARGET_OPTIONS -fshort-wchar)

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

# _pbcheck_toolchain(OUT_FUZZER OUT_COVERAGE): whether this project's C
# compiler can link a libFuzzer binary and a source-based coverage library,
# tried once per build tree; what is missing is said once, with the fix.
function(_pbcheck_toolchain out_fuzzer out_coverage)
  set(fix "configure with -DCMAKE_C_COMPILER=clang (Debian: apt-get install clang libclang-rt-14-dev)")
  if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
    set(fuzzer FALSE)
    set(coverage FALSE)
    set(why "the C compiler is ${CMAKE_C_COMPILER_ID} ${CMAKE_C_COMPILER_VERSION}, not clang: no libFuzzer, no ")
    string(APPEND why "source-based coverage")
  else()
    include(CheckCSourceCompiles)
    include(CMakePushCheckState)
    cmake_push_check_state(RESET)
    set(CMAKE_REQUIRED_QUIET ON)
    set(CMAKE_REQUIRED_LINK_OPTIONS -fsanitize=fuzzer)
    check_c_source_compiles("
      #include <stddef.h>
      #include <stdint.h>
      int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }" PBCHECK_HAVE_LIBFUZZER)
    cmake_reset_check_state()
    set(CMAKE_REQUIRED_QUIET ON)
    set(CMAKE_REQUIRED_FLAGS "-fprofile-instr-generate -fcoverage-mapping")
    set(CMAKE_REQUIRED_LINK_OPTIONS -fprofile-instr-generate)
    check_c_source_compiles("int main(void) { return 0; }" PBCHECK_HAVE_PROFILE_RT)
    cmake_pop_check_state()
    set(fuzzer ${PBCHECK_HAVE_LIBFUZZER})
    set(coverage ${PBCHECK_HAVE_PROFILE_RT})
    # Under OSS-Fuzz or ClusterFuzzLite the engine comes from LIB_FUZZING_ENGINE.
    if(DEFINED ENV{LIB_FUZZING_ENGINE})
      set(fuzzer TRUE)
    endif()
    set(why)
    if(NOT fuzzer)
      list(APPEND why "clang cannot link -fsanitize=fuzzer (libFuzzer's runtime is missing)")
    endif()
    if(NOT coverage)
      list(APPEND why "clang cannot link -fprofile-instr-generate (the profile runtime is missing)")
    endif()
    list(JOIN why "; " why)
  endif()
  get_property(said GLOBAL PROPERTY _PBCHECK_TOOLCHAIN_SAID)
  if(why AND NOT said)
    set(left)
    if(NOT fuzzer)
      list(APPEND left "NAME_fuzzer (docs/ci-fuzzing.md)")
    endif()
    if(NOT coverage)
      list(APPEND left "libNAME_cov.so (certify --coverage)")
    endif()
    list(JOIN left " and " left)
    message(WARNING "pbcheck_add_target: ${why}, so ${left} will not be built. To build them, ${fix}.")
    set_property(GLOBAL PROPERTY _PBCHECK_TOOLCHAIN_SAID TRUE)
  endif()
  set(${out_fuzzer} ${fuzzer} PARENT_SCOPE)
  set(${out_coverage} ${coverage} PARENT_SCOPE)
endfunction()

# _pbcheck_add_afl(NAME SOURCES ... INCLUDE_DIRS ... DEFINITIONS ...): the
# AFL++ library and fuzz binary, when afl-clang-fast and the kit exist.
function(_pbcheck_add_afl name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "SOURCES;INCLUDE_DIRS;DEFINITIONS;OPTIONS")
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
  set(flags -O1 -g -fPIC ${pbcheck_KIT_SANITIZE} -D_POSIX_C_SOURCE=200809L ${arg_OPTIONS})
  foreach(dir ${arg_INCLUDE_DIRS} "${pbcheck_INCLUDE_DIR}" "${pbcheck_INCLUDE_DIR}/pbcheck/wdk")
    list(APPEND flags "-I${dir}")
  endforeach()
  foreach(def ${arg_DEFINITIONS})
    list(APPEND flags "-D${def}")
  endforeach()
  list(APPEND flags "-DPBC_TARGET_NAME=\"${name}\"")
  set(exe "${CMAKE_CURRENT_BINARY_DIR}/${name}_afl_fuzz")
  # The builder's sources in the binary (instrumented), the harness from the
  # kit (plain): no library to load, so its edges count from the start.
  add_custom_command(OUTPUT "${exe}"
    COMMAND "${PBCHECK_AFL_CC}" ${flags} ${arg_SOURCES} "${pbcheck_KIT_DIR}/afl_main.c"
            ${pbcheck_KIT_LIBRARIES} ${pbcheck_KIT_LINK} -o "${exe}"
    DEPENDS ${pbcheck_KIT_LIBRARIES} "${pbcheck_KIT_DIR}/afl_main.c" ${arg_SOURCES}
    COMMENT "AFL++ fuzz binary ${name}_afl_fuzz" VERBATIM)
  configure_file("${pbcheck_KIT_DIR}/diff.dict" "${exe}.dict" COPYONLY)
  configure_file("${pbcheck_KIT_DIR}/diff.options" "${exe}.options" COPYONLY)
  if(PBCHECK_AFL)
    add_custom_target(${name}_afl ALL DEPENDS "${exe}")
  else()
    add_custom_target(${name}_afl DEPENDS "${exe}")
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

# _pbcheck_add_fuzzer(NAME SOURCES ... RUNS n): NAME_fuzzer (compiled as the
# NAME target is), its dictionary, options and seed corpus, and fuzz_NAME.
function(_pbcheck_add_fuzzer name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "RUNS" "SOURCES")
  if(NOT EXISTS "${pbcheck_KIT_MUTATOR}")
    message(WARNING "pbcheck_add_target(${name}): the package has no fuzz kit (${pbcheck_KIT_MUTATOR} is "
                    "missing), so ${name}_fuzzer will not be built: reinstall pbcheck (cmake --install).")
    return()
  endif()
  set(exe ${name}_fuzzer)
  add_executable(${exe} ${arg_SOURCES})
  _pbcheck_same_build(${exe} ${name})
  target_link_libraries(${exe} PRIVATE pbcheck::headers)
  if(DEFINED ENV{LIB_FUZZING_ENGINE})
    # OSS-Fuzz / ClusterFuzzLite: CFLAGS (in CMAKE_C_FLAGS) carry the
    # sanitizer and the engine's instrumentation; the engine links as given.
    separate_arguments(engine UNIX_COMMAND "$ENV{LIB_FUZZING_ENGINE}")
  else()
    # The builder under ASan and UBSan whatever pbcheck was built with.
    set(san -fsanitize=address,undefined -fno-omit-frame-pointer)
    target_compile_options(${exe} PRIVATE -fsanitize=fuzzer-no-link ${san})
    set(engine -fsanitize=fuzzer ${san})
  endif()
  # The mutator's hooks whole (libFuzzer finds them by name), then the kit;
  # AFL++'s driver refers to the target's entry points only weakly, which
  # would not pull them out of the kit.
  target_link_libraries(${exe} PRIVATE ${engine} ${pbcheck_KIT_SANITIZE}
                        -Wl,-u,LLVMFuzzerTestOneInput -Wl,-u,LLVMFuzzerInitialize
                        -Wl,--whole-archive "${pbcheck_KIT_MUTATOR}" -Wl,--no-whole-archive
                        ${pbcheck_KIT_LIBRARIES} ${pbcheck_KIT_LINK})
  set(out "${CMAKE_CURRENT_BINARY_DIR}")
  set_target_properties(${exe} PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${out}")
  configure_file("${pbcheck_KIT_DIR}/diff.dict" "${out}/${exe}.dict" COPYONLY)
  configure_file("${pbcheck_KIT_DIR}/diff.options" "${out}/${exe}.options" COPYONLY)
  # The seeds laid onto the builder's declared adapter, by the binary itself
  # (it has the declaration linked in; no DDI runs), folder and zip.
  file(GLOB seeds "${pbcheck_SEEDS_DIR}/*.pbs")
  set(dir "${out}/${exe}_seeds")
  set(zip "${out}/${exe}_seed_corpus.zip")
  add_custom_command(OUTPUT "${zip}"
    COMMAND "${CMAKE_COMMAND}" -E rm -rf "${dir}"
    COMMAND "${CMAKE_COMMAND}" -E make_directory "${dir}"
    COMMAND "${CMAKE_COMMAND}" -E env "PBCHECK_ENCODE_SEEDS=${dir}" ASAN_OPTIONS=detect_leaks=0
            LLVM_PROFILE_FILE=/dev/null $<TARGET_FILE:${exe}> ${seeds}
    COMMAND "${CMAKE_COMMAND}" -E chdir "${dir}" "${CMAKE_COMMAND}" -E tar cf "${zip}" --format=zip .
    DEPENDS ${exe} ${seeds}
    COMMENT "Seed corpus of ${exe}, laid onto its adapter" VERBATIM)
  add_custom_target(${exe}_seeds ALL DEPENDS "${zip}")
  if(NOT TARGET pbcheck_fuzzers)
    add_custom_target(pbcheck_fuzzers)
  endif()
  add_dependencies(pbcheck_fuzzers ${exe} ${exe}_seeds)
  set(runs 200)
  if(arg_RUNS)
    set(runs ${arg_RUNS})
  endif()
  set(work "${out}/fuzz_${name}")
  file(MAKE_DIRECTORY "${work}")
  add_test(NAME fuzz_${name}
           COMMAND $<TARGET_FILE:${exe}> -runs=${runs} -seed=1 -artifact_prefix=${work}/
                   -dict=${out}/${exe}.dict "${work}/corpus" "${dir}"
           WORKING_DIRECTORY "${work}")
  file(MAKE_DIRECTORY "${work}/corpus")
  set_tests_properties(fuzz_${name} PROPERTIES LABELS fuzz)
endfunction()

# _pbcheck_same_build(FLAVOUR NAME): FLAVOUR (libNAME_cov.so, NAME_fuzzer)
# compiles the sources as the NAME target does, with the include folders,
# definitions and options given to pbcheck_add_target or set on NAME later.
function(_pbcheck_same_build flavour name)
  target_include_directories(${flavour} PRIVATE $<TARGET_PROPERTY:${name},INCLUDE_DIRECTORIES>)
  target_compile_definitions(${flavour} PRIVATE $<TARGET_PROPERTY:${name},COMPILE_DEFINITIONS>)
  target_compile_options(${flavour} PRIVATE $<TARGET_PROPERTY:${name},COMPILE_OPTIONS>)
endfunction()

function(pbcheck_add_target name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "CASE_INSENSITIVE_INCLUDES;NO_CERTIFY_TEST" "FUZZ_RUNS"
                        "SOURCES;INCLUDE_DIRS;COMPILE_DEFINITIONS;COMPILE_OPTIONS;CERTIFY_ARGS")
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

  # No build type and no -g: findings would read file:? (no line tables).
  set(options ${_PBCHECK_TARGET_OPTIONS} ${arg_COMPILE_OPTIONS})
  if(NOT CMAKE_BUILD_TYPE AND NOT CMAKE_CONFIGURATION_TYPES AND NOT CMAKE_C_FLAGS MATCHES "(^| )-g"
     AND NOT CMAKE_CXX_FLAGS MATCHES "(^| )-g")
    message(STATUS "pbcheck_add_target(${name}): no CMAKE_BUILD_TYPE, so lib${name}.so is compiled with -g "
                   "(findings name file:line)")
    list(PREPEND options -g)
  endif()
  _pbcheck_toolchain(can_fuzz can_cover)

  add_library(${name} SHARED ${sources})
  target_include_directories(${name} PRIVATE ${include_dirs})
  target_link_libraries(${name} PRIVATE pbcheck::headers)
  target_compile_definitions(${name} PRIVATE ${arg_COMPILE_DEFINITIONS} "PBC_TARGET_NAME=\"${name}\"")
  target_compile_options(${name} PRIVATE ${options})
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

  # libNAME_cov.so: the same builder with clang's source-based coverage, for
  # `certify --coverage` and `fuzz --coverage`. Continuous mode (counters
  # relocated into the mapped profile) lets a worker that ends with _exit
  # or a crash keep what it ran.
  if(can_cover)
    add_library(${name}_cov SHARED ${sources})
    _pbcheck_same_build(${name}_cov ${name})
    target_link_libraries(${name}_cov PRIVATE pbcheck::headers)
    target_compile_options(${name}_cov PRIVATE -O0 -fprofile-instr-generate -fcoverage-mapping
                           "SHELL:-mllvm -runtime-counter-relocation")
    target_link_options(${name}_cov PRIVATE -fprofile-instr-generate)
    set_target_properties(${name}_cov PROPERTIES PREFIX "lib" C_VISIBILITY_PRESET hidden
                          CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
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
                   DEFINITIONS ${arg_COMPILE_DEFINITIONS} OPTIONS ${options})

  if(can_fuzz)
    _pbcheck_add_fuzzer(${name} SOURCES ${sources} RUNS ${arg_FUZZ_RUNS})
  endif()
endfunction()
