lwb_add_test(tst_optim engine/tst_optim.cpp)
