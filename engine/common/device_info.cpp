#include "common/device_info.h"

#include "common/threads.h"

#include <ATen/Context.h>

#include <cstdio>

// Debian's CPU LibTorch ships the ATen/cuda headers but no CUDA runtime, so the header's
// presence proves nothing: engine/CMakeLists.txt defines LWB_TORCH_CUDA only when the LibTorch
// it found links CUDA libraries.
#if defined(LWB_TORCH_CUDA) && __has_include(<cuda_runtime_api.h>)
#include <cuda_runtime_api.h>
#define LWB_DEVICE_INFO_CUDA 1
#endif

namespace lwb {

bool cudaMemoryInfo(int index, std::int64_t* freeBytes, std::int64_t* totalBytes) {
#ifdef LWB_DEVICE_INFO_CUDA
  int previous = 0;
  if (cudaGetDevice(&previous) != cudaSuccess) return false;
  if (cudaSetDevice(index) != cudaSuccess) return false;
  size_t freeB = 0, totalB = 0;
  const bool ok = cudaMemGetInfo(&freeB, &totalB) == cudaSuccess;
  cudaSetDevice(previous);
  if (!ok) return false;
  *freeBytes = static_cast<std::int64_t>(freeB);
  *totalBytes = static_cast<std::int64_t>(totalB);
  return true;
#else
  (void)index;
  (void)freeBytes;
  (void)totalBytes;
  return false;
#endif
}

bool selectCudaDevice(int index) {
#ifdef LWB_DEVICE_INFO_CUDA
  return cudaSetDevice(index) == cudaSuccess;
#else
  (void)index;
  return false;
#endif
}

std::vector<DeviceInfo> availableDevices() {
  std::vector<DeviceInfo> out;
  const int threads = defaultIntraOpThreads();
  out.push_back({"cpu", "CPU (" + std::to_string(threads) + " threads)", -1, -1, threads});
#ifdef LWB_DEVICE_INFO_CUDA
  if (!at::hasCUDA()) return out;
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) return out;
  for (int i = 0; i < count; ++i) {
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, i) != cudaSuccess) continue;
    DeviceInfo d{"cuda:" + std::to_string(i), prop.name, -1, static_cast<std::int64_t>(prop.totalGlobalMem)};
    cudaMemoryInfo(i, &d.freeBytes, &d.totalBytes);
    out.push_back(std::move(d));
  }
#endif
  return out;
}

std::string formatBytes(std::int64_t bytes) {
  if (bytes < 0) return "unknown";
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024.0 && u < 4) {
    v /= 1024.0;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.1f %s", v, units[u]);
  return buf;
}

}  // namespace lwb
