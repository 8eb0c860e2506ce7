// Which OpenBLAS kernels this process runs, and the fix for a VM that hides its CPU model.
// OpenBLAS (DYNAMIC_ARCH) picks its kernels at load time from the CPU's family and model
// unless OPENBLAS_CORETYPE names a core. On a VM that reports a generic "Intel Xeon Processor"
// OpenBLAS 0.3.21 falls back to Prescott (SSE3) kernels although the CPU has AVX2 and AVX-512:
// measured on this project's VM on 2026-11-26, 6.8x slower singular values (docs/BENCHMARKS.md).
#pragma once

#include <string>

namespace lwb {

// The OpenBLAS core in use ("Haswell", "Cooperlake"), or empty when the BLAS is not OpenBLAS.
std::string blasCoreName();

// What the CPU can run: 3 AVX-512 (F, BW, VL, DQ), 2 AVX2 with FMA, 1 anything older.
int cpuVectorLevel();

// The OPENBLAS_CORETYPE to ask for when the loaded core (`loaded`, as blasCoreName() says)
// uses a narrower vector unit than the CPU offers (`cpuLevel`): "SkylakeX" for level 3,
// "Haswell" for level 2; empty when the loaded core is as good (or unknown: not OpenBLAS).
std::string openBlasCoreToForce(const std::string& loaded, int cpuLevel);

}  // namespace lwb
