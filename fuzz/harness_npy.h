// The .npy fuzz harness (contract: see harness_safetensors.h). It fuzzes the torch-free decoder
// that both `readNpy` (CLI) and the .npz reader are built on.
#pragma once

#include "harness_safetensors.h"
#include "io/input_error.h"
#include "io/npy_format.h"

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

namespace lwb::fuzz {

// Decode; on success the record must hold exactly numel × element size bytes, all readable.
inline void runNpy(const uint8_t* data, size_t size) {
  auto bytes = std::make_shared<const std::string>(reinterpret_cast<const char*>(data), size);
  io::RawTensor t;
  try {
    t = io::decodeNpyRecord(bytes, "fuzz", "fuzz.npy");
  } catch (const InputError&) {
    return;
  }
  if (t.nbytes != static_cast<uint64_t>(t.numel()) * io::elementSize(t.dtype))
    throw std::logic_error("npy record's byte count does not match its shape");
  volatile uint64_t sink = touch(t);
  (void)sink;
}

}  // namespace lwb::fuzz
