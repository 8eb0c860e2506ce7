// A zip archive in memory, validated before anything is decompressed (libzip underneath).
// Shared by the .npz and PyTorch-archive readers. Torch-free.
//
// Zip files are hostile in ways of their own: central-directory sizes that lie, members that
// inflate a thousandfold (zip bombs), many entries over the same compressed bytes, names
// such as "../../x". The constructor checks every entry's declared sizes, method, encryption
// and name against ZipLimits; read() then decompresses one member and verifies its actual
// size and CRC instead of trusting the header.
#pragma once

#include "io/raw_tensor.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

struct zip;  // libzip's zip_t

namespace lwb::io {

struct ZipLimits {
  uint64_t maxMembers = 100'000;
  size_t maxNameBytes = 1024;
  // One member, uncompressed (an .npy array, a PyTorch storage).
  uint64_t maxMemberBytes = uint64_t{8} << 30;
  // All members together, uncompressed: max(floor, expansion × archive size), never above
  // the ceiling. Real tensors deflate ~1.1×; 64× leaves room for zero-filled arrays while a
  // bomb (deflate reaches ~1032×, overlapping entries far more) is refused before inflating.
  uint64_t totalBytesFloor = uint64_t{256} << 20;
  uint64_t maxExpansion = 64;
  uint64_t totalBytesCeiling = uint64_t{32} << 30;
};

struct ZipMember {
  std::string name;
  uint64_t index = 0;  // libzip's entry index
  uint64_t size = 0;  // declared uncompressed size (verified by read())
  uint64_t compressedSize = 0;
  bool deflated = false;
};

// "PK\x03\x04": a zip that starts with a local file header (npz, PyTorch archives).
bool hasZipMagic(std::string_view bytes);

class ZipArchive {
 public:
  // Opens and validates; throws InputError("<what>: ...") for a corrupt archive, more
  // members than the limit, a name that is empty, absolute, has "..", "." or empty parts, a
  // backslash, a control byte or a duplicate, a method other than stored/deflate,
  // encryption, or declared sizes beyond the limits (or impossible for the method).
  ZipArchive(SharedBytes bytes, std::string what, const ZipLimits& limits = {});
  ~ZipArchive();
  ZipArchive(const ZipArchive&) = delete;
  ZipArchive& operator=(const ZipArchive&) = delete;

  // Files in central-directory order (directory entries are left out).
  const std::vector<ZipMember>& members() const { return members_; }
  const ZipMember* find(std::string_view name) const;
  const std::string& what() const { return what_; }
  uint64_t archiveBytes() const { return bytes_.size(); }

  // The member's bytes, decompressed; exactly `size` bytes with a matching CRC or InputError
  // ("<what>: member '<name>': ..."). The buffer is allocated at the declared size only when
  // the archive itself holds that much (stored members, deflate within 64× of its input);
  // otherwise it grows with the data actually produced.
  SharedBytes read(const ZipMember& member) const;

 private:
  SharedBytes bytes_;
  std::string what_;
  zip* zip_ = nullptr;
  std::vector<ZipMember> members_;
};

}  // namespace lwb::io
