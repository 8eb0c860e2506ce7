// NumPy .npz: a zip of .npy members (np.savez stores them, np.savez_compressed deflates them).
// Torch-free. The tensor name is the member name without ".npy" ("w.npy" → "w").
#pragma once

#include "io/npy_format.h"
#include "io/raw_tensor.h"
#include "io/zip_archive.h"

#include <memory>
#include <string>

namespace lwb::io {

// Validates the zip (ZipLimits: zip-bomb caps, member count, names), then decodes every member
// with the .npy decoder. A member that is not "<name>.npy" or not a valid .npy is an error:
// InputError("<what>: member '<m>': ..."). Tensors come back in archive order.
TensorFile decodeNpz(SharedBytes bytes, const std::string& what,
                     const ZipLimits& zipLimits = {}, const NpyLimits& npyLimits = {});
TensorFile decodeNpz(const ZipArchive& zip, const NpyLimits& npyLimits = {});

}  // namespace lwb::io
