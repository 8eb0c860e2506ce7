# engine/data test suites: lwb_add_test(tst_... engine/tst_....cpp)
lwb_add_test(tst_data engine/tst_data.cpp)              # chars + modular
lwb_add_test(tst_data_mnist engine/tst_data_mnist.cpp)  # gzip, IDX, MNIST
lwb_add_test(tst_data_cifar10 engine/tst_data_cifar10.cpp)
# The real datasets are the bundled copies (resources/data), named "@data/..." as presets
# name them; tst_bundled_data checks their bytes and where "@data/..." resolves.
lwb_add_test(tst_bundled_data engine/tst_bundled_data.cpp)
target_compile_definitions(tst_bundled_data PRIVATE LWB_SOURCE_DATA_DIR="${PROJECT_SOURCE_DIR}/resources/data")
# tst_data_mnist writes gzip files of its own.
find_package(ZLIB REQUIRED)
target_link_libraries(tst_data_mnist PRIVATE ZLIB::ZLIB)
# Issue 25: Witten–Bell character n-gram reference levels and 000's validation window.
lwb_add_test(tst_char_ngram engine/tst_char_ngram.cpp)
