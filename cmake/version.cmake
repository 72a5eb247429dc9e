# Writes OUTPUT (pbc_version.h) with VERSION and the git revision of
# SOURCE_DIR, "unknown" when git or the repository is missing. Run as
# `cmake -P` at build time by the pbc_version target; configure_file leaves
# the header alone when nothing changed, so pbcheck is not rebuilt for it.
set(PBC_GIT_REV "unknown")
find_package(Git QUIET)
if(GIT_FOUND)
  execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SOURCE_DIR} describe --always --dirty
                  OUTPUT_VARIABLE rev OUTPUT_STRIP_TRAILING_WHITESPACE
                  RESULT_VARIABLE rc ERROR_QUIET)
  if(rc EQUAL 0 AND NOT rev STREQUAL "")
    set(PBC_GIT_REV "${rev}")
  endif()
endif()
set(PBC_VERSION "${VERSION}")
configure_file(${CMAKE_CURRENT_LIST_DIR}/pbc_version.h.in ${OUTPUT} @ONLY)
