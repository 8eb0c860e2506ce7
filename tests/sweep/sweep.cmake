# Sweeps end to end through lipschitz-cli (issue 18): the local backend, the index command,
# and the Slurm backend on a real single-node Slurm started by a ctest fixture.
lwb_add_test(tst_cli_sweep sweep/tst_cli_sweep.cpp)
target_compile_definitions(tst_cli_sweep PRIVATE LWB_CLI_PATH="$<TARGET_FILE:lipschitz-cli>")
add_dependencies(tst_cli_sweep lipschitz-cli)
find_package(SQLite3 REQUIRED)
target_link_libraries(tst_cli_sweep PRIVATE SQLite::SQLite3)  # holds an index's lock like another process

# The fixture's setup and cleanup are tests of their own, so ctest stops the daemons even
# when the suite fails or crashes. If Slurm cannot start, slurm_start fails (with the
# daemons' logs) and tst_slurm_sweep fails too: never a silent skip.
set(LWB_SLURM_FIXTURE_DIR ${CMAKE_CURRENT_BINARY_DIR}/slurm_fixture)
add_test(NAME slurm_start COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/sweep/slurm_fixture.sh start ${LWB_SLURM_FIXTURE_DIR})
add_test(NAME slurm_stop COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/sweep/slurm_fixture.sh stop ${LWB_SLURM_FIXTURE_DIR})
set_tests_properties(slurm_start PROPERTIES FIXTURES_SETUP slurm TIMEOUT 60)
set_tests_properties(slurm_stop PROPERTIES FIXTURES_CLEANUP slurm TIMEOUT 60)
lwb_add_test(tst_slurm_sweep sweep/tst_slurm_sweep.cpp)
target_compile_definitions(tst_slurm_sweep PRIVATE LWB_CLI_PATH="$<TARGET_FILE:lipschitz-cli>" LWB_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
add_dependencies(tst_slurm_sweep lipschitz-cli)
set_tests_properties(tst_slurm_sweep PROPERTIES FIXTURES_REQUIRED slurm RESOURCE_LOCK slurm
  ENVIRONMENT "${LWB_TEST_ENV};QT_QPA_PLATFORM=offscreen;LWB_THREADS=1;LWB_SLURM_FIXTURE_DIR=${LWB_SLURM_FIXTURE_DIR}")
