// RawTensor ↔ at::Tensor. Bytes are copied exactly, so a round trip is bit-exact for every
// dtype (NaN payloads, -0.0, bfloat16 included).
#pragma once

#include "io/raw_tensor.h"

#include <ATen/core/Tensor.h>

#include <optional>
#include <string>

namespace lwb::io {

// The LibTorch scalar type of a record dtype (F16 → kHalf, BF16 → kBFloat16, ...).
at::ScalarType toScalarType(DType d);

// The record dtype of a LibTorch scalar type; nullopt for types records cannot hold
// (complex, quantized, uint16/32/64, float8).
std::optional<DType> fromScalarType(at::ScalarType t);

// A CPU tensor that owns a copy of the record's bytes (so it stays valid and writable
// whatever happens to the file buffer). Bool bytes other than 0 are read as true.
at::Tensor toTensor(const RawTensor& raw);

// A CPU tensor over the record's own bytes, without a copy, when they are aligned to the
// element size (safetensors files written by encodeSafetensors, .npy and C-contiguous PyTorch
// tensors always are); otherwise, and for Bool, a copy as toTensor makes. The tensor keeps the
// file buffer alive. For reading (inspect, spectra): first-touch page faults here run at
// ~100 MB/s, so copying a 500 MB checkpoint tensor by tensor costs seconds. Writing into it
// would change the record and any record sharing its storage.
at::Tensor asTensor(const RawTensor& raw);

// A record owning a snapshot of `t` as CPU, contiguous (C order), dense bytes: later changes
// to `t` (a training step) do not reach it. Throws InputError("tensor '<name>': ...") for a
// dtype records cannot hold.
RawTensor fromTensor(std::string name, const at::Tensor& t);

}  // namespace lwb::io
