// OpenBLAS kernel choice on CPUs newer than the OpenBLAS build.
//
// Debian 12 ships OpenBLAS 0.3.21 (DYNAMIC_ARCH). It does not know AMD Zen 4/5 (CPU families
// 19h/1Ah with AVX-512) and falls back to its AVX2 "Haswell" kernels; later OpenBLAS releases
// map these CPUs to the AVX-512 SkylakeX/Cooperlake kernels. On this project's Zen 5 VM the
// fallback halves float32 GEMM throughput (one core, 256×512·512×256: 104 vs 205 GFLOP/s),
// and GEMM is most of every Newton–Schulz step, training step and Clip Lab update.
#pragma once

#include <string>

namespace lwb {

struct BlasCore {
  std::string before, after;  // OpenBLAS core names ("Haswell" → "SkylakeX"); empty: not OpenBLAS
  bool changed = false;
};

// Call first thing in main(), before any BLAS call and before threads start. When the
// process's BLAS is OpenBLAS, OPENBLAS_CORETYPE is unset, OpenBLAS picked an AVX2 fallback
// core (Haswell/Zen) and the CPU and OS support the AVX-512 subsets the SkylakeX kernels use
// (F, CD, BW, DQ, VL), it sets OPENBLAS_CORETYPE=SkylakeX and re-runs OpenBLAS's core
// selection (the documented variable, read by its exported gotoblas_dynamic_init). A user's
// own OPENBLAS_CORETYPE always wins; any other case leaves everything as it was.
BlasCore preferAvx512BlasKernels();

// The OpenBLAS core in use ("SkylakeX"), or empty when the BLAS is not OpenBLAS.
std::string blasCoreName();

}  // namespace lwb
