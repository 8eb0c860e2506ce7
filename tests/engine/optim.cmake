lwb_add_test(tst_optim engine/tst_optim.cpp)
lwb_add_test(tst_manifold_muon engine/tst_manifold_muon.cpp)
