// PyTorch `.pt`/`.pth` zip archives written by `torch.save` (PyTorch ≥ 1.6): a state_dict, or
// any nest of dicts/lists/tuples holding tensors. Torch-free: the zip is validated by
// ZipArchive, the pickle read by the restricted pickle_reader (nothing is executed), and every
// tensor's storage offset, sizes and strides are checked against the bytes its storage record
// really holds before one byte of it is touched.
#pragma once

#include "io/pickle_reader.h"
#include "io/raw_tensor.h"
#include "io/zip_archive.h"

#include <memory>
#include <string>

namespace lwb::io {

struct PytorchLimits {
  ZipLimits zip;
  PickleLimits pickle;
  uint64_t maxPickleBytes = uint64_t{64} << 20;
  uint64_t maxTensors = 1'000'000;
  // Nodes visited while flattening: shared sub-trees (memo references) could otherwise
  // multiply into exponentially many names.
  uint64_t maxVisits = 4'000'000;
};

// True when the archive has exactly one "<archive>/data.pkl" record, as torch.save writes.
bool isPytorchArchive(const ZipArchive& zip);

// Reads every tensor. Nested containers are flattened with dots ("encoder.layers.0.weight");
// a bare tensor is named "tensor"; non-tensor leaves (ints, strings, inert objects) are
// skipped. Throws InputError("<what>: ...").
TensorFile decodePytorchArchive(const ZipArchive& zip, const PytorchLimits& limits = {});
TensorFile decodePytorchArchive(SharedBytes bytes, const std::string& what,
                                const PytorchLimits& limits = {});

}  // namespace lwb::io
