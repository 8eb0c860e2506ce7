# engine/data test suites: lwb_add_test(tst_... engine/tst_....cpp)
