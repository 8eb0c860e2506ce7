// IDX files (MNIST, Fashion-MNIST): big-endian header, then uint8 data, row-major.
// Internal to engine/data; the decode functions take bytes so tests need no files.
#pragma once

#include <ATen/core/Tensor.h>

#include <string>

namespace lwb::data {

inline constexpr uint32_t kIdxImagesMagic = 0x00000803;  // uint8, 3 dims
inline constexpr uint32_t kIdxLabelsMagic = 0x00000801;  // uint8, 1 dim
inline constexpr int64_t kMnistSide = 28;

// uint8 [count, 28 * 28]. Throws InputError "<what>: ..." for a bad magic, a truncated
// header, images that are not 28x28, no images, or a pixel count that does not match the
// bytes present (short or long).
at::Tensor decodeIdxImages(const std::string& bytes, const std::string& what);

// int64 [count], every value in 0..9.
at::Tensor decodeIdxLabels(const std::string& bytes, const std::string& what);

// Read (gunzipping if needed) and decode a file.
at::Tensor readIdxImages(const std::string& path);
at::Tensor readIdxLabels(const std::string& path);

}  // namespace lwb::data
