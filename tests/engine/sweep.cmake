# engine/sweep test suites (issue 18): the run index and sweep specs.
lwb_add_test(tst_run_index engine/tst_run_index.cpp)
find_package(SQLite3 REQUIRED)
target_link_libraries(tst_run_index PRIVATE SQLite::SQLite3)
lwb_add_test(tst_sweep_spec engine/tst_sweep_spec.cpp)
target_compile_definitions(tst_sweep_spec PRIVATE LWB_PRESETS_DIR="${CMAKE_SOURCE_DIR}/resources/presets")
