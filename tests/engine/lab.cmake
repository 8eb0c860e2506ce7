# engine/lab: the Clip Lab's computations against exact references.
lwb_add_test(tst_lab engine/tst_lab.cpp)
lwb_add_test(tst_attention_lab engine/tst_attention_lab.cpp)
