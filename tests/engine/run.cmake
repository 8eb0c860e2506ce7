# engine/run test suites: lwb_add_test(tst_... engine/tst_....cpp)
lwb_add_test(tst_run_config engine/tst_run_config.cpp)
# Every preset file must parse; the suite reads them from the source tree.
target_compile_definitions(tst_run_config PRIVATE LWB_PRESETS_DIR="${CMAKE_SOURCE_DIR}/resources/presets")
lwb_add_test(tst_run_directory engine/tst_run_directory.cpp)
lwb_add_test(tst_checkpoint engine/tst_checkpoint.cpp)
target_compile_definitions(tst_checkpoint PRIVATE LWB_CLI_PATH="$<TARGET_FILE:lipschitz-cli>")
add_dependencies(tst_checkpoint lipschitz-cli)
