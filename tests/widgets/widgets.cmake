# Widget suites link libwidgets + Qt Test only (no engine, no LibTorch PCH) and run on the
# offscreen platform. Included from tests/CMakeLists.txt when LWB_BUILD_GUI is on.
function(lwb_add_widget_test name)
  add_executable(${name} ${ARGN})
  set_target_properties(${name} PROPERTIES AUTOMOC ON)
  target_link_libraries(${name} PRIVATE widgets Qt6::Test lwb_options)
  add_test(NAME ${name} COMMAND ${name})
  set_tests_properties(${name} PROPERTIES ENVIRONMENT "${LWB_TEST_ENV};QT_QPA_PLATFORM=offscreen")
endfunction()

lwb_add_widget_test(tst_widget_data widgets/tst_widget_data.cpp)
lwb_add_widget_test(tst_plot_view widgets/tst_plot_view.cpp)
lwb_add_widget_test(tst_dashboard_plots widgets/tst_dashboard_plots.cpp)

# Renders every plot with realistic synthetic data: `lwb-widget-gallery DIR` writes
# DIR/*.png (docs/screenshots/widgets/ in the repository). As a test it renders into the
# build tree and fails if a file is missing or blank.
add_executable(lwb-widget-gallery widgets/widget_gallery.cpp)
set_target_properties(lwb-widget-gallery PROPERTIES AUTOMOC ON)
target_link_libraries(lwb-widget-gallery PRIVATE widgets lwb_options)
add_test(NAME tst_widget_gallery COMMAND lwb-widget-gallery ${CMAKE_CURRENT_BINARY_DIR}/widget_gallery)
set_tests_properties(tst_widget_gallery PROPERTIES ENVIRONMENT "${LWB_TEST_ENV};QT_QPA_PLATFORM=offscreen")

# lwb-widget-bench: replot and decimation timings for docs/BENCHMARKS.md (not a test).
add_executable(lwb-widget-bench widgets/widget_bench.cpp)
target_link_libraries(lwb-widget-bench PRIVATE widgets lwb_options)
