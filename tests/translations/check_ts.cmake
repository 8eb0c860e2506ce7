# ctest: fails if a user-visible string has no German translation, or the .ts keeps a string the
# code no longer has. Runs lupdate over the same sources and with the same options as the
# update_translations target, but into a copy of each .ts (the source tree is not touched) and
# keeping vanished messages, then lists every message that is unfinished (new or changed
# strings) or vanished/obsolete.
#   cmake -DLUPDATE=... -DSOURCES_LIST=... -DTS_FILES=a.ts;b.ts -DINCLUDES=dir;dir
#         -DOPTIONS=opt;opt -DWORK_DIR=... -P check_ts.cmake
file(MAKE_DIRECTORY ${WORK_DIR})
list(REMOVE_ITEM OPTIONS -no-obsolete)
set(include_args)
foreach(dir IN LISTS INCLUDES)
  list(APPEND include_args -I ${dir})
endforeach()

set(problems 0)
foreach(ts IN LISTS TS_FILES)
  get_filename_component(name ${ts} NAME)
  set(copy ${WORK_DIR}/${name})
  file(COPY_FILE ${ts} ${copy})
  execute_process(COMMAND ${LUPDATE} ${OPTIONS} ${include_args} @${SOURCES_LIST} -ts ${copy}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "lupdate failed (${rc}):\n${out}\n${err}")
  endif()
  file(READ ${copy} text)
  # CMake lists split at ';' (not inside [...]) and its regexes have no lazy match: swap ';',
  # '[' and ']' for control characters (XML text cannot contain them) and mark the end tags of
  # contexts and messages with two more.
  string(ASCII 1 semi)
  string(ASCII 2 open)
  string(ASCII 3 close)
  string(ASCII 4 end_context)
  string(ASCII 5 end_message)
  string(REPLACE ";" "${semi}" text "${text}")
  string(REPLACE "[" "${open}" text "${text}")
  string(REPLACE "]" "${close}" text "${text}")
  string(REPLACE "</context>" "${end_context}" text "${text}")
  string(REPLACE "</message>" "${end_message}" text "${text}")
  string(REGEX MATCHALL "<context>[^${end_context}]*${end_context}" contexts "${text}")
  set(count 0)
  foreach(context IN LISTS contexts)
    string(REGEX MATCH "<name>([^<]*)</name>" _ "${context}")
    set(context_name "${CMAKE_MATCH_1}")
    string(REGEX MATCHALL "<message[^${end_message}]*${end_message}" messages "${context}")
    foreach(message IN LISTS messages)
      math(EXPR count "${count} + 1")
      string(REGEX MATCH "type=\"(unfinished|vanished|obsolete)\"" bad "${message}")
      if(bad)
        string(REGEX MATCH "<source>([^<]*)</source>" _ "${message}")
        set(source "${CMAKE_MATCH_1}")
        string(REPLACE "${semi}" ";" source "${source}")
        string(REPLACE "${open}" "[" source "${source}")
        string(REPLACE "${close}" "]" source "${source}")
        string(REPLACE "&lt;" "<" source "${source}")
        string(REPLACE "&gt;" ">" source "${source}")
        string(REPLACE "&quot;" "\"" source "${source}")
        string(REPLACE "&apos;" "'" source "${source}")
        string(REPLACE "&amp;" "&" source "${source}")
        string(REGEX REPLACE "^type=\"|\"$" "" kind "${bad}")
        message("${name}: ${kind}: [${context_name}] ${source}")
        math(EXPR problems "${problems} + 1")
      endif()
    endforeach()
  endforeach()
  message("${name}: ${count} messages checked")
endforeach()

if(problems GREATER 0)
  message(FATAL_ERROR "${problems} message(s) without a finished translation or no longer in the code. "
                      "Run `cmake --build build --target update_translations`, then translate the unfinished "
                      "messages in translations/*.ts (Qt Linguist or a text editor) and remove type=\"unfinished\".")
endif()
