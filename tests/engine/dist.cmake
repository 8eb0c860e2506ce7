# engine/dist (issue 28): the Gloo communicator with two ranks as threads, batch shares, the
# world from the environment.
lwb_add_test(tst_dist engine/tst_dist.cpp)
