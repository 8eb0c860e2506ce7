# app/ suites (offscreen platform): the workbench library with its engine worker threads.
# They link Qt Widgets, so they do not reuse the engine tests' precompiled header (built
# without QT_GUI_LIB). The engine's run results and reader they use have no LibTorch.
function(lwb_add_app_test name)
  add_executable(${name} ${ARGN})
  set_target_properties(${name} PROPERTIES AUTOMOC ON)
  target_link_libraries(${name} PRIVATE workbench Qt6::Test lwb_options)
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/tests)
  add_test(NAME ${name} COMMAND lwb-test-launcher $<TARGET_FILE:${name}>)
  set_tests_properties(${name} PROPERTIES ENVIRONMENT "${LWB_TEST_ENV};QT_QPA_PLATFORM=offscreen;LWB_THREADS=2")
endfunction()

foreach(suite tst_app_stream tst_app_units tst_app_follow tst_app_dashboard tst_app_window tst_translations tst_app_first_run tst_app_layout)
  lwb_add_app_test(${suite} app/${suite}.cpp)
endforeach()
target_compile_definitions(tst_app_units PRIVATE LWB_PRESETS_DIR="${PROJECT_SOURCE_DIR}/resources/presets")
# The window suite trains tiny models on generated data (no dataset files needed).
set_tests_properties(tst_app_window PROPERTIES TIMEOUT 900)
# Hostile files in the app (issue 33).
lwb_add_app_test(tst_app_hostile app/tst_app_hostile.cpp)
# The Train page's "Generate text" action on a tiny chars run that lipschitz-cli trains (issue 29 §4).
lwb_add_app_test(tst_app_text_sample app/tst_app_text_sample.cpp)
target_compile_definitions(tst_app_text_sample PRIVATE LWB_CLI_PATH="$<TARGET_FILE:lipschitz-cli>" LWB_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
add_dependencies(tst_app_text_sample lipschitz-cli)
# A run trained by several processes from the app (issue 28): RunManager starts lipschitz-cli.
lwb_add_app_test(tst_app_processes app/tst_app_processes.cpp)
target_compile_definitions(tst_app_processes PRIVATE LWB_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
add_dependencies(tst_app_processes lipschitz-cli)
set_tests_properties(tst_app_processes PROPERTIES TIMEOUT 300)
