#pragma once

namespace lwb {

// Flush-to-zero and denormals-are-zero for the calling thread (x86 MXCSR; aarch64 FPCR.FZ);
// threads started afterwards inherit it (pthread_create copies the floating-point
// environment), so call it at the start of main(), before LibTorch's and OpenBLAS's OpenMP
// teams exist. Why: float32 values below 1.2e-38 are handled in microcode on x86, ~100x slower
// per operation, and training produces them — GeLU's derivative exp(-x^2/2) for |x| > 13.2 fed
// into the next GEMM made a chars run at sigma_max 2.5 run 3.8 instead of 27 steps/s, 75 % of
// its time in oneDNN's GEMM (RESULTS §5.8). Results differ only where a value would have been
// below 1.2e-38. $LWB_DENORMALS=keep leaves the environment alone (for comparisons).
void configureFloatingPoint();

}  // namespace lwb
