# Pages of lipschitz-workbench, added to the `workbench` library by app/CMakeLists.txt.
# Only inspector/inspector_loader.cpp and inspector/text_sample_job.cpp include LibTorch
# headers (engine/inspect, engine/run);
# the Clip Lab reaches the engine through engine/lab/lab.h, which has none.
target_sources(workbench PRIVATE
  pages/common/latest_wins.h pages/common/latest_wins.cpp
  pages/common/slider_field.h pages/common/slider_field.cpp
  pages/common/method_form.h pages/common/method_form.cpp
  pages/common/page_frame.h pages/common/page_frame.cpp
  pages/common/page_export.h pages/common/page_export.cpp
  pages/common/lecture_preset_bar.h pages/common/lecture_preset_bar.cpp
  pages/common/ns_steps_field.h pages/common/ns_steps_field.cpp
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
  pages/inspector/text_sample_job.h pages/inspector/text_sample_job.cpp
  pages/inspector/text_sample_panel.h pages/inspector/text_sample_panel.cpp
  pages/inspector/history_panel.h pages/inspector/history_panel.cpp
  pages/inspector/inspector_page.h pages/inspector/inspector_page.cpp
  pages/compare/run_record.h pages/compare/run_record.cpp
  pages/compare/compare_table_model.h pages/compare/compare_table_model.cpp
  pages/compare/compare_loading.h pages/compare/compare_loading.cpp
  pages/compare/compare_plots.h pages/compare/compare_plots.cpp
  pages/compare/compare_page.h pages/compare/compare_page.cpp
  pages/robustness/robustness_job.h pages/robustness/robustness_job.cpp
  pages/robustness/robustness_page.h pages/robustness/robustness_page.cpp
  pages/compare/lr_robustness_demo.h pages/compare/lr_robustness_demo.cpp
  pages/page_registry.h pages/page_registry.cpp
)
# Sweeps page (issue 18): runs lipschitz-cli sweep as a child process; the build tree's CLI
# is the last place sweep_process.cpp looks for it.
target_sources(workbench PRIVATE
  pages/sweeps/sweep_spec_text.h pages/sweeps/sweep_spec_text.cpp
  pages/sweeps/sweep_estimate.h pages/sweeps/sweep_estimate.cpp
  pages/sweeps/sweep_form.h pages/sweeps/sweep_form.cpp
  pages/sweeps/sweep_process.h pages/sweeps/sweep_process.cpp
  pages/sweeps/sweep_points_model.h pages/sweeps/sweep_points_model.cpp
  pages/sweeps/sweeps_page.h pages/sweeps/sweeps_page.cpp
)
set_source_files_properties(runs/cli_program.cpp PROPERTIES
  COMPILE_DEFINITIONS LWB_CLI_BUILD_PATH="$<TARGET_FILE:lipschitz-cli>")
# Attention Lab (issue 15): reaches the engine through engine/lab/attention_lab.h (no LibTorch).
target_sources(workbench PRIVATE
  pages/common/step_player.h pages/common/step_player.cpp
  pages/attention/attention_common.h pages/attention/attention_common.cpp
  pages/attention/live_view.h pages/attention/live_view.cpp
  pages/attention/length_view.h pages/attention/length_view.cpp
  pages/attention/prox_view.h pages/attention/prox_view.cpp
  pages/attention/finite_k_view.h pages/attention/finite_k_view.cpp
  pages/attention/plane_view.h pages/attention/plane_view.cpp
  pages/attention/attention_presets.h pages/attention/attention_presets.cpp
  pages/attention/attention_page.h pages/attention/attention_page.cpp
)
