// Harnesses for the zip-based parsers (contract: see harness_safetensors.h): the zip
// pre-validator on its own, the .npz reader, and the whole PyTorch-archive path.
#pragma once

#include "harness_safetensors.h"
#include "io/input_error.h"
#include "io/npz.h"
#include "io/pytorch_archive.h"
#include "io/zip_archive.h"

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

namespace lwb::fuzz {

inline std::shared_ptr<const std::string> copyIn(const uint8_t* data, size_t size) {
  return std::make_shared<const std::string>(reinterpret_cast<const char*>(data), size);
}

// The readers' own code with the limits scaled down: a 8 KiB input may still inflate to the
// limit, but to 1 MiB rather than the production floor of 256 MiB, so every execution stays fast.
inline io::ZipLimits fuzzZipLimits() {
  io::ZipLimits l;
  l.maxMembers = 1000;
  l.maxMemberBytes = uint64_t{1} << 20;
  l.totalBytesFloor = uint64_t{1} << 20;
  l.totalBytesCeiling = uint64_t{1} << 20;
  return l;
}

inline io::PytorchLimits fuzzPytorchLimits() {
  io::PytorchLimits l;
  l.zip = fuzzZipLimits();
  l.pickle.maxValues = 100'000;
  l.maxTensors = 10'000;
  l.maxVisits = 100'000;
  return l;
}

// Every record a reader returns must hold exactly numel × element size readable bytes.
inline void checkRecords(const io::TensorFile& f) {
  volatile uint64_t sink = 0;
  for (const io::RawTensor& t : f.tensors) {
    for (const int64_t d : t.shape)
      if (d < 0) throw std::logic_error("record '" + t.name + "' has a negative dimension");
    if (t.nbytes != static_cast<uint64_t>(t.numel()) * io::elementSize(t.dtype))
      throw std::logic_error("record '" + t.name + "' byte count does not match its shape");
    sink = sink + touch(t);
  }
}

// Validate, then read every member: each read must return exactly the declared size.
inline void runZip(const uint8_t* data, size_t size) {
  try {
    const io::ZipArchive zip(copyIn(data, size), "fuzz.zip", fuzzZipLimits());
    for (const io::ZipMember& m : zip.members()) {
      io::SharedBytes bytes;
      try {
        bytes = zip.read(m);
      } catch (const InputError&) {
        continue;  // one bad member (CRC, short data) does not stop the others being tried
      }
      if (bytes.size() != m.size) throw std::logic_error("member '" + m.name + "' read a size other than declared");
      volatile uint64_t sink = 0;
      for (const char c : bytes.view()) sink = sink + static_cast<unsigned char>(c);
    }
  } catch (const InputError&) {
  }
}

inline void runNpz(const uint8_t* data, size_t size) {
  io::TensorFile f;
  try {
    f = io::decodeNpz(copyIn(data, size), "fuzz.npz", fuzzZipLimits());
  } catch (const InputError&) {
    return;
  }
  checkRecords(f);
}

inline void runPytorch(const uint8_t* data, size_t size) {
  io::TensorFile f;
  try {
    f = io::decodePytorchArchive(copyIn(data, size), "fuzz.pt", fuzzPytorchLimits());
  } catch (const InputError&) {
    return;
  }
  checkRecords(f);
}

}  // namespace lwb::fuzz
