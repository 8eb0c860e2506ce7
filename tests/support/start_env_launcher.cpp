// lwb-test-launcher PROGRAM [ARGS...]: runs a test suite in the environment our programs give
// themselves before LibTorch loads (common/start_env.h), then becomes PROGRAM by exec. Without
// it a suite ran OpenBLAS's fallback kernels on a VM that hides its CPU model (Prescott, SSE3:
// tst_clip_accuracy 37 s against 12 s with the AVX-512 ones), testing code paths and speeds no
// user sees. No LibTorch here: the BLAS core is asked before anything loads it.
#include "common/start_env.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: lwb-test-launcher PROGRAM [ARGS...]\n");
    return 2;
  }
  lwb::setStartEnvironmentBeforeLoad();
  execv(argv[1], argv + 1);
  std::fprintf(stderr, "lwb-test-launcher: cannot start %s: %s\n", argv[1], std::strerror(errno));
  return 127;
}
