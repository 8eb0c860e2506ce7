# tst_package: the Debian package end to end (tests/package/tst_package.sh): cpack, lintian,
# appstreamcli/desktop-file-validate, dpkg -x into a temporary root, --version and a 20-step
# preset run from there. Registered only when LibTorch is a system library (Debian's): the
# package's Depends come from dpkg-shlibdeps, which knows no pytorch.org LibTorch.
set(lwb_torch_is_system OFF)
get_filename_component(lwb_torch_dir "${TORCH_LIBRARY}" DIRECTORY)
if(lwb_torch_dir IN_LIST CMAKE_CXX_IMPLICIT_LINK_DIRECTORIES)
  set(lwb_torch_is_system ON)
endif()
if(lwb_torch_is_system)
  add_test(NAME tst_package
           COMMAND ${CMAKE_CURRENT_LIST_DIR}/tst_package.sh ${PROJECT_BINARY_DIR} ${PROJECT_VERSION}
                   $<IF:$<TARGET_EXISTS:lipschitz-workbench>,ON,OFF>)
  # Under a minute (cpack with stripping and xz, lintian, a 20-step run); label it so `ctest -LE slow` skips it.
  set_tests_properties(tst_package PROPERTIES LABELS "package;slow" TIMEOUT 300)
else()
  message(STATUS "LibTorch is not a system library (${TORCH_LIBRARY}): tst_package not registered")
endif()
