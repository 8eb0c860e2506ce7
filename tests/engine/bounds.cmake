# engine/bounds test suites: lwb_add_test(tst_... engine/tst_....cpp)
lwb_add_test(tst_bounds engine/tst_bounds.cpp)
lwb_add_test(tst_bounds_empirical engine/tst_bounds_empirical.cpp)
lwb_add_test(tst_gpt_bound engine/tst_gpt_bound.cpp)
