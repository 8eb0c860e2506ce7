# Install rules (GNUInstallDirs) for both programs and everything the package ships with
# them. Included from the top-level CMakeLists.txt after the targets exist; the Debian
# package itself is configured in packaging/cpack.cmake. docs/DESIGN.md "Packaging".
#
#   bin/lipschitz-cli, bin/lipschitz-workbench (GUI builds only)
#   share/lipschitz-workbench/presets/*.json
#   share/man/man1/<program>.1.gz              generated from each program's --help (help2man)
#   share/applications/lipschitz-workbench.desktop                    } GUI builds only
#   share/metainfo/io.github.lipschitz_workbench.metainfo.xml         }
#   share/icons/hicolor/{scalable,NxN}/apps/lipschitz-workbench.*     } PNGs by rsvg-convert
#   share/doc/lipschitz-workbench/{copyright,changelog.gz}
#
# Bundled data and presets install through resources/install_data.cmake, translations through
# translations/CMakeLists.txt — see docs/DESIGN.md "Packaging".
include(GNUInstallDirs)

set(LWB_INSTALL_SHAREDIR ${CMAKE_INSTALL_DATADIR}/lipschitz-workbench)
set(LWB_APPSTREAM_ID io.github.lipschitz_workbench)
set(LWB_MAINTAINER_EMAIL maintainers@users.noreply.a-seed-90d6fe2f.example)
set(LWB_INSTALL_DOCDIR ${CMAKE_INSTALL_DATAROOTDIR}/doc/lipschitz-workbench)  # Debian's name, not PROJECT_NAME
set(lwb_pkg_out ${PROJECT_BINARY_DIR}/packaging)

# Dates in the changelog and the AppStream release: the last commit's, so that two builds of
# one commit give the same files (SOURCE_DATE_EPOCH, if set, wins; no git: today).
if(NOT DEFINED ENV{SOURCE_DATE_EPOCH})
  find_package(Git QUIET)
  if(GIT_FOUND)
    execute_process(COMMAND ${GIT_EXECUTABLE} log -1 --format=%ct
                    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
                    OUTPUT_VARIABLE lwb_commit_time OUTPUT_STRIP_TRAILING_WHITESPACE
                    RESULT_VARIABLE lwb_git_rc ERROR_QUIET)
    if(lwb_git_rc EQUAL 0 AND lwb_commit_time MATCHES "^[0-9]+$")
      set(ENV{SOURCE_DATE_EPOCH} ${lwb_commit_time})  # this configure run only
    endif()
  endif()
endif()
file(MAKE_DIRECTORY ${lwb_pkg_out})

set(lwb_programs lipschitz-cli)
if(TARGET lipschitz-workbench)
  list(APPEND lwb_programs lipschitz-workbench)
endif()

# The build-tree RPATH goes away on install. Only library folders outside the project and
# outside the system's own (a pytorch.org LibTorch) stay in the installed RPATH; Debian's
# LibTorch lives in the multiarch folder, so the packaged binaries carry no RPATH at all.
set_target_properties(${lwb_programs} lipschitz-cli-engine PROPERTIES INSTALL_RPATH_USE_LINK_PATH ON)
install(TARGETS ${lwb_programs} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# lipschitz-cli execs the engine program beside it (engine/cli/front_main.cpp); no man page of
# its own (it is lipschitz-cli's).
install(TARGETS lipschitz-cli-engine RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# Presets and bundled data: resources/install_data.cmake (one place for both).

# --- Man pages: help2man runs each built program's --help and --version. -------------------
find_program(LWB_HELP2MAN help2man)
find_program(LWB_GZIP gzip)
if(LWB_HELP2MAN AND LWB_GZIP)
  set(lwb_man_name_lipschitz-cli "headless Lipschitz Workbench tools: spectral constraints, training, inspection")
  set(lwb_man_name_lipschitz-workbench "train neural networks with an enforced Lipschitz bound and watch them live")
  set(lwb_manpages)
  foreach(prog IN LISTS lwb_programs)
    set(man ${lwb_pkg_out}/man/${prog}.1)
    set(include_opt)
    set(extra_cmd)
    set(extra_dep)
    if(prog STREQUAL "lipschitz-cli")
      # Every subcommand's own --help becomes the COMMANDS section.
      set(include_opt --include ${lwb_pkg_out}/man/${prog}.h2m)
      set(extra_cmd COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:${prog}>
                            -DOUT=${lwb_pkg_out}/man/${prog}.h2m
                            -P ${PROJECT_SOURCE_DIR}/packaging/cli_commands_h2m.cmake)
      set(extra_dep ${PROJECT_SOURCE_DIR}/packaging/cli_commands_h2m.cmake)
    endif()
    add_custom_command(
      OUTPUT ${man}.gz
      COMMAND ${CMAKE_COMMAND} -E make_directory ${lwb_pkg_out}/man
      ${extra_cmd}
      # offscreen: the app's --help needs no display, but Qt must never look for one here.
      COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen LC_ALL=C.UTF-8
              ${LWB_HELP2MAN} --no-info --no-discard-stderr --section 1
              "--name=${lwb_man_name_${prog}}" ${include_opt}
              --output ${man} $<TARGET_FILE:${prog}>
      COMMAND ${LWB_GZIP} -9nf ${man}
      DEPENDS ${prog} ${extra_dep}
      COMMENT "Man page ${prog}.1 (help2man)"
      VERBATIM)
    list(APPEND lwb_manpages ${man}.gz)
  endforeach()
  add_custom_target(lwb_manpages ALL DEPENDS ${lwb_manpages})
  install(FILES ${lwb_manpages} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
else()
  message(STATUS "help2man or gzip not found: no man pages (packaging/setup.sh installs help2man)")
endif()

# --- Desktop integration (the app only) ------------------------------------------------------
if(TARGET lipschitz-workbench)
  install(FILES ${PROJECT_SOURCE_DIR}/resources/lipschitz-workbench.desktop
          DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
  # The release list carries PROJECT_VERSION, so the metainfo is configured.
  string(TIMESTAMP LWB_RELEASE_DATE "%Y-%m-%d" UTC)
  configure_file(${PROJECT_SOURCE_DIR}/resources/${LWB_APPSTREAM_ID}.metainfo.xml.in
                 ${lwb_pkg_out}/${LWB_APPSTREAM_ID}.metainfo.xml @ONLY)
  install(FILES ${lwb_pkg_out}/${LWB_APPSTREAM_ID}.metainfo.xml
          DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)

  set(lwb_icon_svg ${PROJECT_SOURCE_DIR}/resources/icons/lipschitz-workbench.svg)
  install(FILES ${lwb_icon_svg} DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
  find_program(LWB_RSVG_CONVERT rsvg-convert)
  if(LWB_RSVG_CONVERT)
    set(lwb_icons)
    foreach(size 16 22 24 32 48 64 128 256 512)
      set(png ${lwb_pkg_out}/icons/${size}x${size}/apps/lipschitz-workbench.png)
      add_custom_command(
        OUTPUT ${png}
        COMMAND ${CMAKE_COMMAND} -E make_directory ${lwb_pkg_out}/icons/${size}x${size}/apps
        COMMAND ${LWB_RSVG_CONVERT} --width ${size} --height ${size} --output ${png} ${lwb_icon_svg}
        DEPENDS ${lwb_icon_svg}
        VERBATIM)
      list(APPEND lwb_icons ${png})
    endforeach()
    add_custom_target(lwb_icons ALL DEPENDS ${lwb_icons})
    install(DIRECTORY ${lwb_pkg_out}/icons/ DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor)
  else()
    message(STATUS "rsvg-convert not found: only the scalable icon (packaging/setup.sh installs librsvg2-bin)")
  endif()
endif()

# --- Debian doc files: copyright, and the changelog lintian expects of a native package. ----
string(TIMESTAMP LWB_CHANGELOG_DATE "%a, %d %b %Y %H:%M:%S +0000" UTC)
configure_file(${PROJECT_SOURCE_DIR}/packaging/changelog.in ${lwb_pkg_out}/changelog @ONLY)
install(FILES ${PROJECT_SOURCE_DIR}/packaging/copyright
        DESTINATION ${LWB_INSTALL_DOCDIR})
if(LWB_GZIP)
  add_custom_command(
    OUTPUT ${lwb_pkg_out}/changelog.gz
    COMMAND ${LWB_GZIP} -9nc ${lwb_pkg_out}/changelog > ${lwb_pkg_out}/changelog.gz
    DEPENDS ${lwb_pkg_out}/changelog)
  add_custom_target(lwb_changelog ALL DEPENDS ${lwb_pkg_out}/changelog.gz)
  install(FILES ${lwb_pkg_out}/changelog.gz DESTINATION ${LWB_INSTALL_DOCDIR})
endif()
