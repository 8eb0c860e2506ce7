# engine/attention test suites (seed 004, SEEDS-002-004 §H.3–H.5).
lwb_add_test(tst_attlip engine/tst_attlip.cpp)
lwb_add_test(tst_l2_attention engine/tst_l2_attention.cpp)
lwb_add_test(tst_pgd_lipschitz engine/tst_pgd_lipschitz.cpp)
