# cmake -DPROGRAM=path/to/lipschitz-cli -DOUT=file.h2m -P cli_commands_h2m.cmake
# Writes a help2man include file whose COMMANDS section holds every subcommand's own --help,
# so that `man lipschitz-cli` documents the options of train, spectral, ... and not only the
# top-level ones. The subcommands are read from the "Subcommands:" block of PROGRAM --help
# (CLI11's layout), so a new subcommand appears without editing this file.
foreach(var PROGRAM OUT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "cli_commands_h2m.cmake: -D${var}=... is required")
  endif()
endforeach()

execute_process(COMMAND ${PROGRAM} --help OUTPUT_VARIABLE top RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} --help failed (${rc})")
endif()

# Text of one help screen as roff: verbatim lines, backslashes and minus signs escaped,
# a leading '.' or '\'' protected so that roff does not read it as a request.
function(lwb_roff_verbatim text out_var)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REPLACE "-" "\\-" text "${text}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
  set(${out_var} "${text}" PARENT_SCOPE)
endfunction()

set(doc "[COMMANDS]\nEach command has its own options; `lipschitz\\-cli COMMAND \\-\\-help` prints them.\n")
string(REPLACE "\n" ";" lines "${top}")
set(in_block FALSE)
set(count 0)
foreach(line IN LISTS lines)
  if(line MATCHES "^Subcommands:")
    set(in_block TRUE)
  elseif(in_block AND line MATCHES "^  ([a-z][a-z0-9-]*)( |$)")
    set(sub ${CMAKE_MATCH_1})
    execute_process(COMMAND ${PROGRAM} ${sub} --help OUTPUT_VARIABLE help RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "${PROGRAM} ${sub} --help failed (${rc})")
    endif()
    string(STRIP "${help}" help)
    lwb_roff_verbatim("${help}" help)
    string(APPEND doc ".SS ${sub}\n.nf\n${help}\n.fi\n")
    math(EXPR count "${count} + 1")
  elseif(in_block AND line STREQUAL "")
    set(in_block FALSE)
  endif()
endforeach()
if(count EQUAL 0)
  message(FATAL_ERROR "no subcommands found in the output of ${PROGRAM} --help")
endif()
file(WRITE ${OUT} "${doc}")
