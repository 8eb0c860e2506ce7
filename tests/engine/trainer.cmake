lwb_add_test(tst_trainer engine/tst_trainer.cpp)
target_compile_definitions(tst_trainer PRIVATE LWB_CLI_PATH="$<TARGET_FILE:lipschitz-cli>"
                                               LWB_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
                                               LWB_PROJECT_VERSION="${PROJECT_VERSION}")
add_dependencies(tst_trainer lipschitz-cli)
lwb_add_test(tst_robustness engine/tst_robustness.cpp)
target_compile_definitions(tst_robustness PRIVATE LWB_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
# Seed 004 Table 2 analogue: chars_masked, the attlip model and its presets (issue 15).
lwb_add_test(tst_masked_lm engine/tst_masked_lm.cpp)
target_compile_definitions(tst_masked_lm PRIVATE LWB_PRESETS_DIR="${PROJECT_SOURCE_DIR}/resources/presets")
# The engine jobs the CLI and the app share: run::launchRun, run::robustnessOfCheckpoint (issue 27 §2).
lwb_add_test(tst_run_jobs engine/tst_run_jobs.cpp)
target_compile_definitions(tst_run_jobs PRIVATE LWB_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
# The step profile of `lipschitz-cli bench --roofline` (issue 30 §1): GEMM FLOPs against a hand count.
lwb_add_test(tst_step_profile engine/tst_step_profile.cpp)
