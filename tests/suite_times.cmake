# Labels and time limits of the suites (issue 32). `ctest -LE "slow|slurm"` is the quick loop.
#
# LWB_SUITE_SECONDS: seconds each suite took in one full `ctest` run (MEASURED_ON). A suite's
# TIMEOUT is ten times that, at least 60 s (a loaded machine must not fail a fast suite);
# suites of LWB_SLOW_SECONDS or more are labelled `slow`. Re-measure after adding to a suite
# that moves it across either line: `ctest` prints each suite's time.
set(LWB_SLOW_SECONDS 30)
set(LWB_SUITE_SECONDS
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
    if(lwb_timeout LESS 60)
      set(lwb_timeout 60)
    endif()
    set_tests_properties(${lwb_suite} PROPERTIES TIMEOUT ${lwb_timeout})
    if(NOT lwb_seconds LESS LWB_SLOW_SECONDS)
      set_property(TEST ${lwb_suite} APPEND PROPERTY LABELS slow)
    endif()
  endforeach()
endif()

# The Slurm fixture (its daemons) and the suite that needs it: `ctest -LE slurm` leaves
# all three out; `ctest -L slurm` runs them alone.
set_property(TEST slurm_start slurm_stop tst_slurm_sweep APPEND PROPERTY LABELS slurm)
