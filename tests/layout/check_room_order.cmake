# Checks the engine's room order (docs/DESIGN.md "Rooms and their order"): a room includes
# its own headers and those of rooms on lower levels, never one on its own level or above.
# Run as cmake -DENGINE_DIR=<engine/> -P check_room_order.cmake; exits non-zero naming every
# include that leans upward and every folder the order does not know.

# From the bottom up; rooms on one line share a level and may not include each other.
set(levels
  "common"
  "io"
  "spectral data attention bounds"
  "models"
  "dist"
  "optim"
  "run"
  "inspect lab sweep"
  "cli")

set(level 0)
foreach(line IN LISTS levels)
  string(REPLACE " " ";" rooms "${line}")
  foreach(room IN LISTS rooms)
    set(level_${room} ${level})
  endforeach()
  math(EXPR level "${level} + 1")
endforeach()

if(NOT IS_DIRECTORY "${ENGINE_DIR}")
  message(FATAL_ERROR "ENGINE_DIR '${ENGINE_DIR}' is not a folder")
endif()
file(GLOB_RECURSE sources RELATIVE "${ENGINE_DIR}" "${ENGINE_DIR}/*.h" "${ENGINE_DIR}/*.cpp")
set(problems "")
set(checked 0)
foreach(source IN LISTS sources)
  string(REGEX MATCH "^[^/]+" room "${source}")
  if(room STREQUAL source)
    continue()  # a file at engine/ itself belongs to no room
  endif()
  if(NOT DEFINED level_${room})
    list(APPEND problems "${source}: room '${room}' has no place in the order")
    continue()
  endif()
  file(STRINGS "${ENGINE_DIR}/${source}" includes REGEX "^[ \t]*#[ \t]*include[ \t]+\"[a-z_]+/")
  foreach(line IN LISTS includes)
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]+\"([a-z_]+)/.*" "\\1" target "${line}")
    math(EXPR checked "${checked} + 1")
    if(target STREQUAL room)
      continue()
    endif()
    if(NOT DEFINED level_${target})
      list(APPEND problems "${source}: includes '${target}/', which is not an engine room")
    elseif(NOT level_${target} LESS level_${room})
      list(APPEND problems "${source}: ${room} includes ${target} (level ${level_${target}} is not below ${level_${room}})")
    endif()
  endforeach()
endforeach()

list(LENGTH problems count)
if(count GREATER 0)
  list(JOIN problems "\n  " text)
  message(FATAL_ERROR "${count} include(s) against the room order:\n  ${text}")
endif()
message(STATUS "room order holds: ${checked} cross-file includes checked")
