lwb_add_test(tst_models engine/tst_models.cpp)
lwb_add_test(tst_icl engine/tst_icl.cpp)
