#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace lwb {

// One device a run can train on, as the app's device picker and status bar show it.
struct DeviceInfo {
  std::string id;              // "cpu" or "cuda:N" (the config's `device` is "cpu" | "cuda")
  std::string name;            // "CPU (2 threads)" or the GPU's name (the CLI's English text)
  std::int64_t freeBytes = -1;   // free device memory; -1 when unknown (CPU)
  std::int64_t totalBytes = -1;  // total device memory; -1 when unknown (CPU)
  int threads = 0;               // CPU: intra-op threads (the app words the CPU's name from it)
};

// CPU first, then every CUDA device when this LibTorch was built with CUDA and a device is
// present. Never throws: a CUDA query that fails leaves the CUDA devices out.
std::vector<DeviceInfo> availableDevices();

// Free/total memory of one CUDA device, refreshed for the status bar; false when the
// device does not exist or this build has no CUDA.
bool cudaMemoryInfo(int index, std::int64_t* freeBytes, std::int64_t* totalBytes);

// Makes CUDA device `index` this thread's current one (a data-parallel rank's GPU, chosen
// before its model is placed on "cuda"); false when the device does not exist or this build
// has no CUDA.
bool selectCudaDevice(int index);

// "1.2 GiB" style text for memory figures.
std::string formatBytes(std::int64_t bytes);

}  // namespace lwb
