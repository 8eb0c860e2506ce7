lwb_add_test(tst_models engine/tst_models.cpp)
