# engine/attention test suites (seed 004, SEEDS-002-004 §H.3–H.5).
lwb_add_test(tst_attlip engine/tst_attlip.cpp)
lwb_add_test(tst_l2_attention engine/tst_l2_attention.cpp)
lwb_add_test(tst_pgd_lipschitz engine/tst_pgd_lipschitz.cpp)
# The attention-kind registry's traits against the lab and the model (issue 27 §1).
lwb_add_test(tst_attention_kinds engine/tst_attention_kinds.cpp)
