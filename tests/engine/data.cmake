# engine/data test suites: lwb_add_test(tst_... engine/tst_....cpp)
lwb_add_test(tst_data engine/tst_data.cpp)              # chars + modular
lwb_add_test(tst_data_mnist engine/tst_data_mnist.cpp)  # gzip, IDX, MNIST
lwb_add_test(tst_data_cifar10 engine/tst_data_cifar10.cpp)
# The real files live next to the clone (../shared/datasets); $LWB_DATASETS overrides at run
# time, and the suites QSKIP those cases when neither exists.
foreach(t tst_data tst_data_mnist)
  target_compile_definitions(${t} PRIVATE LWB_SHARED_DATASETS="${CMAKE_SOURCE_DIR}/../shared/datasets")
endforeach()
# tst_data_mnist writes gzip files of its own.
find_package(ZLIB REQUIRED)
target_link_libraries(tst_data_mnist PRIVATE ZLIB::ZLIB)
