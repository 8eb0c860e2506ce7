// The safetensors fuzz harness, shared by the libFuzzer target (fuzz/) and the ctest replay of
// the kept corpus (tests/engine/tst_fuzz_corpus.cpp), so both run exactly the same checks.
// Allowed outcomes: success or lwb::InputError. Anything else that escapes (another exception,
// a failed property, a sanitizer report) is a finding.
#pragma once

#include "io/input_error.h"
#include "io/safetensors.h"

#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>

namespace lwb::fuzz {

// Reads every byte a record claims, so the sanitizer sees any view past the buffer.
inline uint64_t touch(const io::RawTensor& t) {
  uint64_t sum = 0;
  for (const std::byte b : t.bytes()) sum += static_cast<uint64_t>(b);
  return sum;
}

inline void requireSame(const io::TensorFile& a, const io::TensorFile& b) {
  if (a.tensors.size() != b.tensors.size() || a.metadata != b.metadata)
    throw std::logic_error("round trip changed the tensor count or metadata");
  for (const io::RawTensor& x : a.tensors) {
    bool found = false;
    for (const io::RawTensor& y : b.tensors) {
      if (y.name != x.name) continue;
      found = true;
      if (y.dtype != x.dtype || y.shape != x.shape || y.nbytes != x.nbytes ||
          (x.nbytes && std::memcmp(x.data.get(), y.data.get(), x.nbytes) != 0))
        throw std::logic_error("round trip changed tensor '" + x.name + "'");
    }
    if (!found) throw std::logic_error("round trip lost tensor '" + x.name + "'");
  }
}

// Decode; on success every record is touched, re-encoded and decoded again, and the second
// decode must give the same records (the writer must accept whatever the reader accepts).
inline void runSafetensors(const uint8_t* data, size_t size) {
  auto bytes = std::make_shared<const std::string>(reinterpret_cast<const char*>(data), size);
  io::TensorFile file;
  try {
    file = io::decodeSafetensors(bytes, "fuzz.safetensors");
  } catch (const InputError&) {
    return;
  }
  volatile uint64_t sink = 0;
  for (const io::RawTensor& t : file.tensors) sink = sink + touch(t);
  auto again = std::make_shared<const std::string>(io::encodeSafetensors(file.tensors, file.metadata));
  requireSame(file, io::decodeSafetensors(again, "re-encoded"));
}

}  // namespace lwb::fuzz
