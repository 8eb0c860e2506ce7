lwb_add_test(tst_models engine/tst_models.cpp)
lwb_add_test(tst_icl engine/tst_icl.cpp)
# Attention's batched products by one BLAS call per matrix (issue 30 §2) against a loop.
lwb_add_test(tst_batched_gemm engine/tst_batched_gemm.cpp)
# Fused kernels (issue 30 §2) against the unfused operations they replace.
lwb_add_test(tst_fused_kernels engine/tst_fused_kernels.cpp)
