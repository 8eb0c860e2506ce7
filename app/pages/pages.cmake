# Pages of lipschitz-workbench, added to the `workbench` library by app/CMakeLists.txt.
# Only inspector/inspector_loader.cpp includes LibTorch headers (engine/inspect, engine/run);
# the Clip Lab reaches the engine through engine/lab/lab.h, which has none.
target_sources(workbench PRIVATE
  pages/common/latest_wins.h pages/common/latest_wins.cpp
  pages/common/slider_field.h pages/common/slider_field.cpp
  pages/common/method_form.h pages/common/method_form.cpp
  pages/common/curve_plot.h pages/common/curve_plot.cpp
  pages/common/page_frame.h pages/common/page_frame.cpp
  pages/cliplab/matrix_source_panel.h pages/cliplab/matrix_source_panel.cpp
  pages/cliplab/constraint_view.h pages/cliplab/constraint_view.cpp
  pages/cliplab/ns_steps_view.h pages/cliplab/ns_steps_view.cpp
  pages/cliplab/cap_sweep_view.h pages/cliplab/cap_sweep_view.cpp
  pages/cliplab/equilibrium_view.h pages/cliplab/equilibrium_view.cpp
  pages/cliplab/stiefel_view.h pages/cliplab/stiefel_view.cpp
  pages/cliplab/cliplab_presets.h pages/cliplab/cliplab_presets.cpp
  pages/cliplab/cliplab_page.h pages/cliplab/cliplab_page.cpp
  pages/inspector/inspected_file.h
  pages/inspector/inspector_loader.h pages/inspector/inspector_loader.cpp
  pages/inspector/tensor_table_model.h pages/inspector/tensor_table_model.cpp
  pages/inspector/what_if_panel.h pages/inspector/what_if_panel.cpp
  pages/inspector/inspector_page.h pages/inspector/inspector_page.cpp
  pages/compare/run_record.h pages/compare/run_record.cpp
  pages/compare/compare_table_model.h pages/compare/compare_table_model.cpp
  pages/compare/compare_page.h pages/compare/compare_page.cpp
  pages/compare/lr_robustness_demo.h pages/compare/lr_robustness_demo.cpp
  pages/page_registry.h pages/page_registry.cpp
)
