// Internal to the run directory: spectra.bin holds float32 values in little-endian order
// whatever the host, so a run copied between machines reads back the same.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace lwb::run::detail {

inline std::string encodeFloat32LE(const std::vector<float>& values) {
  std::string bytes(values.size() * 4, '\0');
  std::memcpy(bytes.data(), values.data(), bytes.size());
  if constexpr (std::endian::native == std::endian::big)
    for (size_t i = 0; i < bytes.size(); i += 4) {
      std::swap(bytes[i], bytes[i + 3]);
      std::swap(bytes[i + 1], bytes[i + 2]);
    }
  return bytes;
}

inline std::vector<float> decodeFloat32LE(std::string bytes) {
  if constexpr (std::endian::native == std::endian::big)
    for (size_t i = 0; i + 3 < bytes.size(); i += 4) {
      std::swap(bytes[i], bytes[i + 3]);
      std::swap(bytes[i + 1], bytes[i + 2]);
    }
  std::vector<float> values(bytes.size() / 4);
  std::memcpy(values.data(), bytes.data(), values.size() * 4);
  return values;
}

}  // namespace lwb::run::detail
