# engine/io suites: tensor-file readers/writers, fixtures and fuzz-corpus regressions.
lwb_add_test(tst_safetensors engine/tst_safetensors.cpp)
# Replays tests/fixtures/fuzz/<parser>/ (kept libFuzzer corpora + crash reproducers) through the
# fuzzers' own harnesses (fuzz/harness_*.h).
lwb_add_test(tst_fuzz_corpus engine/tst_fuzz_corpus.cpp)
target_include_directories(tst_fuzz_corpus PRIVATE ${CMAKE_SOURCE_DIR}/fuzz)
target_compile_definitions(tst_fuzz_corpus PRIVATE LWB_FUZZ_CORPUS_DIR="${CMAKE_SOURCE_DIR}/tests/fixtures/fuzz")
# Zip pre-validator + .npz, and the PyTorch-archive reader; both build zips byte by byte
# (engine/zip_builder.h, zlib for deflated members).
lwb_add_test(tst_npz engine/tst_npz.cpp)
find_package(ZLIB REQUIRED)
target_link_libraries(tst_npz PRIVATE ZLIB::ZLIB)
lwb_add_test(tst_pytorch_archive engine/tst_pytorch_archive.cpp)
target_link_libraries(tst_pytorch_archive PRIVATE ZLIB::ZLIB)
lwb_add_test(tst_tensor_file engine/tst_tensor_file.cpp)
target_link_libraries(tst_tensor_file PRIVATE ZLIB::ZLIB)
# The fuzz harnesses of the zip parsers build zips (zlib's crc32).
target_link_libraries(tst_fuzz_corpus PRIVATE ZLIB::ZLIB)
# Fixtures written by real PyTorch / NumPy (tests/fixtures/make_fixtures.py) against expected.json.
lwb_add_test(tst_tensor_readers engine/tst_tensor_readers.cpp)
target_compile_definitions(tst_tensor_readers PRIVATE LWB_FIXTURES_DIR="${CMAKE_SOURCE_DIR}/tests/fixtures")
# WeightWatcher-parity metrics of the Inspector and `inspect` (issue 29 §1) against a
# reference written in the test.
lwb_add_test(tst_spectral_metrics engine/tst_spectral_metrics.cpp)
# The inspect route for large files: sliced float64 Gram vs exact SVD, parallel = serial reports.
lwb_add_test(tst_tensor_report engine/tst_tensor_report.cpp)
# TensorBoard event files (issue 29 §3) from a test-side writer.
lwb_add_test(tst_tfevents engine/tst_tfevents.cpp)
# Hugging Face model folders: index.json weight_map over shards (issue 29 §2).
lwb_add_test(tst_model_folder engine/tst_model_folder.cpp)
# A run directory's checkpoints as a history and two checkpoints' per-layer deltas (issue 29 §2).
lwb_add_test(tst_checkpoint_history engine/tst_checkpoint_history.cpp)
