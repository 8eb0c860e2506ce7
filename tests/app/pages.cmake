# Pages of lipschitz-workbench (issue 6: Clip Lab, Checkpoint Inspector, Compare), offscreen.
# They link the app's `workbench` library; none includes LibTorch (the pages reach the engine
# through engine/lab/lab.h and plain structs).
function(lwb_add_pages_test name)
  add_executable(${name} ${ARGN})
  set_target_properties(${name} PROPERTIES AUTOMOC ON)
  target_link_libraries(${name} PRIVATE workbench Qt6::Test lwb_options)
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/tests)
  target_compile_definitions(${name} PRIVATE LWB_FIXTURES_DIR="${PROJECT_SOURCE_DIR}/tests/fixtures")
  add_test(NAME ${name} COMMAND lwb-test-launcher $<TARGET_FILE:${name}>)
  set_tests_properties(${name} PROPERTIES ENVIRONMENT "${LWB_TEST_ENV};QT_QPA_PLATFORM=offscreen;LWB_THREADS=2" TIMEOUT 600)
endfunction()

lwb_add_pages_test(tst_pages_cliplab app/tst_pages_cliplab.cpp)
lwb_add_pages_test(tst_pages_inspector app/tst_pages_inspector.cpp)
# The Inspector's bound for workbench checkpoints is checked against a run that
# lipschitz-cli trains and against `lipschitz-cli bound` on it.
target_compile_definitions(tst_pages_inspector PRIVATE LWB_CLI_PATH="$<TARGET_FILE:lipschitz-cli>"
                                                       LWB_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
add_dependencies(tst_pages_inspector lipschitz-cli)
lwb_add_pages_test(tst_pages_compare app/tst_pages_compare.cpp)
# The Inspector's run history: checkpoints over steps and two checkpoints' deltas (issue 29 §2).
lwb_add_pages_test(tst_pages_inspector_history app/tst_pages_inspector_history.cpp)
# The command line and the main window reach every page.
lwb_add_pages_test(tst_pages_reach app/tst_pages_reach.cpp)
# Sweeps page and Compare on a sweep's run index (issue 18): launches lipschitz-cli sweep.
lwb_add_pages_test(tst_pages_sweeps app/tst_pages_sweeps.cpp)
add_dependencies(tst_pages_sweeps lipschitz-cli)
# Robustness page (issue 13): computes on a run lipschitz-cli trains, compared with
# `lipschitz-cli robustness` on it.
lwb_add_pages_test(tst_pages_robustness app/tst_pages_robustness.cpp)
target_compile_definitions(tst_pages_robustness PRIVATE LWB_CLI_PATH="$<TARGET_FILE:lipschitz-cli>"
                                                        LWB_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
add_dependencies(tst_pages_robustness lipschitz-cli)
# Attention Lab (issue 15): the page's numbers against engine/lab/attention_lab.h called directly.
lwb_add_pages_test(tst_pages_attention app/tst_pages_attention.cpp)
