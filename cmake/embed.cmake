# Writes OUTPUT, a C file defining one NUL-terminated `const unsigned char NAME[]`
# per input file, so pbcheck carries its report templates and needs no
# source tree once installed. Run as `cmake -P` with -DINPUTS=a|b
# -DNAMES=name_a|name_b -DOUTPUT=file.c ('|' separates: a ';' would not
# survive the custom command's shell line) by a custom command that
# lists the inputs as dependencies.
string(REPLACE "|" ";" INPUTS "${INPUTS}")
string(REPLACE "|" ";" NAMES "${NAMES}")
set(text "/* Generated from the report templates by cmake/embed.cmake: do not edit. */\n")
list(LENGTH INPUTS count)
math(EXPR last "${count} - 1")
foreach(i RANGE ${last})
  list(GET INPUTS ${i} input)
  list(GET NAMES ${i} name)
  file(READ ${input} hex HEX)
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
  # Sixteen bytes a line keeps the file diffable and compilers happy.
  string(REGEX REPLACE "((0x..,){16})" "\\1\n    " bytes "${bytes}")
  string(APPEND text "const unsigned char ${name}[] = {\n    ${bytes}0x00};\n")
endforeach()
file(WRITE ${OUTPUT}.tmp "${text}")
# Unchanged templates leave the file (and the library) alone.
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different ${OUTPUT}.tmp ${OUTPUT})
file(REMOVE ${OUTPUT}.tmp)
