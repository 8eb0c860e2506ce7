# Labels and time limits of the suites (issue 32). `ctest -LE "slow|slurm"` is the quick loop.
#
# LWB_SUITE_SECONDS: seconds each suite took in a full `ctest -j2` run, rounded up (the longer
# of two runs on 2026-11-27 in a Release build on the 2-core development VM, whose new host is
# about 1.3x slower than the one of earlier sessions; each suite's line of ctest's output). A suite's
# TIMEOUT is ten times that, at least 180 s (a loaded machine must not fail a fast suite:
# at load average 8, tst_app_window took 69 s of its former 60 s floor);
# suites of LWB_SLOW_SECONDS or more are labelled `slow`. Re-measure after adding to a suite
# that moves it across either line: `ctest` prints each suite's time.
set(LWB_SLOW_SECONDS 30)
set(LWB_SUITE_SECONDS
  tst_power_iteration 1
  tst_optim 1
  tst_run_config 1
  tst_newton_schulz 1
  tst_symmetric_product 1
  tst_constraints 2
  tst_constraint_methods 2
  tst_clip_accuracy 19
  tst_softcap_alpha 2
  tst_npy 1
  tst_checkpoint_history 1
  tst_thread_policy 1
  tst_data 1
  tst_data_mnist 2
  tst_data_cifar10 1
  tst_bundled_data 1
  tst_char_ngram 1
  tst_bounds 1
  tst_bounds_empirical 2
  tst_gpt_bound 16
  tst_models 2
  tst_icl 3
  tst_manifold_muon 3
  tst_run_directory 1
  tst_checkpoint 17
  tst_run_results 1
  tst_run_directory_reader 1
  tst_hostile_files 21
  tst_trainer 21
  tst_step_profile 1
  tst_attention_kinds 2
  tst_batched_gemm 1
  tst_tensor_report 1
  tst_robustness 3
  tst_masked_lm 9
  tst_run_index 2
  tst_sweep_spec 2
  tst_attlip 16
  tst_l2_attention 2
  tst_pgd_lipschitz 1
  tst_safetensors 1
  tst_fuzz_corpus 1
  tst_npz 1
  tst_pytorch_archive 1
  tst_tensor_file 1
  tst_tensor_readers 1
  tst_lab 2
  tst_attention_lab 12
  tst_package 28
  tst_widget_data 1
  tst_plot_view 2
  tst_dashboard_plots 1
  tst_widget_gallery 1
  tst_app_stream 5
  tst_app_units 1
  tst_app_text_sample 6
  tst_app_follow 2
  tst_app_dashboard 3
  tst_app_window 10
  tst_translations 2
  tst_app_first_run 3
  tst_app_processes 8
  tst_app_layout 6
  tst_app_hostile 1
  tst_pages_cliplab 8
  tst_pages_inspector 12
  tst_pages_inspector_history 1
  tst_pages_compare 5
  tst_pages_reach 3
  tst_pages_sweeps 5
  tst_pages_robustness 5
  tst_pages_attention 16
  tst_cli_spectral 72
  tst_cli_inspect 18
  tst_cli_sample 22
  tst_cli_sweep 70
  tst_slurm_sweep 17
  tst_translations_complete 1
  tst_cli_robustness 17
  tst_cli_attention 21
  tst_cli_train_dist 33
  tst_dist 7
)

list(LENGTH LWB_SUITE_SECONDS lwb_n)
if(lwb_n GREATER 0)
  math(EXPR lwb_last "${lwb_n} - 1")
  foreach(i RANGE 0 ${lwb_last} 2)
    math(EXPR j "${i} + 1")
    list(GET LWB_SUITE_SECONDS ${i} lwb_suite)
    list(GET LWB_SUITE_SECONDS ${j} lwb_seconds)
    if(NOT TEST ${lwb_suite})
      continue()  # a suite not built in this configuration (e.g. LWB_BUILD_GUI=OFF)
    endif()
    math(EXPR lwb_timeout "${lwb_seconds} * 10")
    if(lwb_timeout LESS 180)
      set(lwb_timeout 180)
    endif()
    # COST: a parallel ctest starts the long suites first even in a fresh build tree (without
    # it, the order is the suites' numbers until a run has written CTestCostData.txt).
    set_tests_properties(${lwb_suite} PROPERTIES TIMEOUT ${lwb_timeout} COST ${lwb_seconds})
    if(NOT lwb_seconds LESS LWB_SLOW_SECONDS)
      set_property(TEST ${lwb_suite} APPEND PROPERTY LABELS slow)
    endif()
  endforeach()
endif()

# The Slurm fixture (its daemons) and the suite that needs it: `ctest -LE slurm` leaves
# all three out; `ctest -L slurm` runs them alone.
set_property(TEST slurm_start slurm_stop tst_slurm_sweep APPEND PROPERTY LABELS slurm)
