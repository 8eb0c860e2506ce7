// Which OpenBLAS kernels this process runs, for benchmark reports. OpenBLAS picks them at
// load time from the CPU, unless OPENBLAS_CORETYPE names a core: this project's VM sets
// OPENBLAS_CORETYPE=Haswell (AVX2), which halves float32 GEMM throughput against the
// Cooperlake (AVX-512) kernels OpenBLAS 0.3.21 picks on its own here (docs/BENCHMARKS.md).
#pragma once

#include <string>

namespace lwb {

// The OpenBLAS core in use ("Haswell", "Cooperlake"), or empty when the BLAS is not OpenBLAS.
std::string blasCoreName();

}  // namespace lwb
