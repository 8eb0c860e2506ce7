#include "io/zip_archive.h"

#include "io/file_io.h"
#include "io/input_error.h"

#include <zip.h>

#include <algorithm>
#include <set>

namespace lwb::io {
namespace {

// Deflate cannot expand data more than ~1032:1 (258-byte matches coded in 2 bits); a larger
// declared ratio is a lie. The slack covers tiny members whose headers dominate.
constexpr uint64_t kMaxDeflateRatio = 1032;
constexpr uint64_t kDeflateSlack = 1024;
constexpr uint64_t kReadChunk = uint64_t{1} << 20;

[[noreturn]] void fail(const std::string& what, const std::string& msg) {
  throw InputError(what + ": " + msg);
}

// Member names become tensor names and, in other tools, paths: refuse anything that could
// climb out of a directory or hide in a terminal.
void checkName(const std::string& name, const std::string& what, size_t maxBytes) {
  const std::string where = "member '" + name + "'";
  if (name.empty()) fail(what, "a member has an empty name");
  if (name.size() > maxBytes) fail(what, "a member name is longer than " + std::to_string(maxBytes) + " bytes");
  for (const char c : name) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) fail(what, "a member name contains a control character");
    if (c == '\\') fail(what, where + ": backslash in the name");
  }
  if (name.front() == '/') fail(what, where + ": absolute path");
  if (name.size() >= 2 && name[1] == ':') fail(what, where + ": drive-letter path");
  size_t start = 0;
  const size_t end = name.back() == '/' ? name.size() - 1 : name.size();  // a directory entry
  while (start <= end) {
    const size_t slash = std::min(name.find('/', start), end);
    const std::string_view part = std::string_view(name).substr(start, slash - start);
    if (part.empty() || part == "." || part == "..")
      fail(what, where + ": path component '" + std::string(part) + "' is not allowed");
    start = slash + 1;
  }
}

}  // namespace

bool hasZipMagic(std::string_view bytes) { return bytes.substr(0, 4) == std::string_view("PK\x03\x04", 4); }

ZipArchive::ZipArchive(SharedBytes bytes, std::string what, const ZipLimits& limits)
    : bytes_(std::move(bytes)), what_(std::move(what)) {
  zip_error_t err;
  zip_error_init(&err);
  zip_source_t* src = zip_source_buffer_create(bytes_.view().data(), bytes_.size(), 0, &err);
  if (!src) {
    const std::string msg = zip_error_strerror(&err);
    zip_error_fini(&err);
    fail(what_, "cannot open the zip archive (" + msg + ")");
  }
  zip_ = zip_open_from_source(src, ZIP_RDONLY | ZIP_CHECKCONS, &err);
  if (!zip_) {
    zip_source_free(src);
    const std::string msg = zip_error_strerror(&err);
    zip_error_fini(&err);
    fail(what_, "not a valid zip archive (" + msg + ")");
  }
  zip_error_fini(&err);
  try {
    const zip_int64_t n = zip_get_num_entries(zip_, 0);
    if (n < 0) fail(what_, "cannot list the zip archive");
    if (static_cast<uint64_t>(n) > limits.maxMembers)
      fail(what_, "zip archive has " + std::to_string(n) + " members, more than the limit of " +
                      std::to_string(limits.maxMembers));
    const uint64_t fileBytes = bytes_.size();
    const uint64_t totalLimit = std::min(limits.totalBytesCeiling,
                                         std::max(limits.totalBytesFloor, limits.maxExpansion * fileBytes));
    uint64_t total = 0;
    std::set<std::string> names;
    for (zip_int64_t i = 0; i < n; ++i) {
      zip_stat_t st;
      zip_stat_init(&st);
      if (zip_stat_index(zip_, static_cast<zip_uint64_t>(i), ZIP_FL_ENC_RAW, &st) != 0)
        fail(what_, "cannot read zip entry " + std::to_string(i) + " (" + zip_strerror(zip_) + ")");
      constexpr zip_uint64_t kNeeded = ZIP_STAT_NAME | ZIP_STAT_SIZE | ZIP_STAT_COMP_SIZE | ZIP_STAT_COMP_METHOD |
                                       ZIP_STAT_ENCRYPTION_METHOD;
      if ((st.valid & kNeeded) != kNeeded || !st.name)
        fail(what_, "zip entry " + std::to_string(i) + " lacks its name, sizes or method");
      ZipMember m;
      m.name = st.name;
      m.index = static_cast<uint64_t>(i);
      m.size = st.size;
      m.compressedSize = st.comp_size;
      checkName(m.name, what_, limits.maxNameBytes);
      if (!names.insert(m.name).second) fail(what_, "member '" + m.name + "' appears twice");
      const std::string where = "member '" + m.name + "': ";
      if (st.encryption_method != ZIP_EM_NONE) fail(what_, where + "encrypted members are not supported");
      if (st.comp_method != ZIP_CM_STORE && st.comp_method != ZIP_CM_DEFLATE)
        fail(what_, where + "compression method " + std::to_string(st.comp_method) +
                        " is not supported (only stored and deflate)");
      m.deflated = st.comp_method == ZIP_CM_DEFLATE;
      if (m.compressedSize > fileBytes)
        fail(what_, where + "compressed size " + std::to_string(m.compressedSize) + " exceeds the file size");
      if (!m.deflated && m.size != m.compressedSize)
        fail(what_, where + "stored member declares " + std::to_string(m.size) + " bytes but holds " +
                        std::to_string(m.compressedSize));
      if (m.deflated && m.size > m.compressedSize * kMaxDeflateRatio + kDeflateSlack)
        fail(what_, where + "declares " + std::to_string(m.size) + " bytes from " +
                        std::to_string(m.compressedSize) + " compressed, more than deflate can produce");
      if (m.size > limits.maxMemberBytes)
        fail(what_, where + "uncompressed size " + std::to_string(m.size) + " exceeds the limit of " +
                        std::to_string(limits.maxMemberBytes) + " bytes");
      total += m.size;  // each term ≤ maxMemberBytes, the count ≤ maxMembers: no overflow
      if (total > totalLimit)
        fail(what_, "members decompress to more than " + std::to_string(totalLimit) +
                        " bytes (limit: max(" + std::to_string(limits.totalBytesFloor) + ", " +
                        std::to_string(limits.maxExpansion) + " × file size)); refusing a possible zip bomb");
      if (m.name.back() == '/') {
        if (m.size != 0) fail(what_, where + "directory entry with data");
        continue;
      }
      members_.push_back(std::move(m));
    }
  } catch (...) {
    zip_discard(zip_);
    throw;
  }
}

ZipArchive::~ZipArchive() { zip_discard(zip_); }

const ZipMember* ZipArchive::find(std::string_view name) const {
  for (const ZipMember& m : members_)
    if (m.name == name) return &m;
  return nullptr;
}

SharedBytes ZipArchive::read(const ZipMember& member) const {
  const std::string where = "member '" + member.name + "': ";
  zip_file_t* f = zip_fopen_index(zip_, member.index, 0);
  if (!f) fail(what_, where + "cannot open (" + zip_strerror(zip_) + ")");
  // Each call reads at most `want` bytes; fails on libzip errors (corrupt data, CRC at the end).
  auto readSome = [&](char* dst, uint64_t want) -> uint64_t {
    const zip_int64_t got = zip_fread(f, dst, want);
    if (got < 0) fail(what_, where + "corrupt data (" + zip_file_strerror(f) + ")");
    return static_cast<uint64_t>(got);
  };
  auto sizeError = [&](uint64_t got, bool more) {
    fail(what_, where + "decompresses to " + (more ? "more than " : "") + std::to_string(got) +
                    " bytes, the header says " + std::to_string(member.size));
  };
  try {
    SharedBytes result;
    const bool trustSize = !member.deflated || member.size <= member.compressedSize * 64 + kReadChunk;
    if (trustSize) {
      char* dst = nullptr;
      result = allocateBuffer(member.size, what_, &dst);
      uint64_t done = 0;
      while (done < member.size) {
        const uint64_t got = readSome(dst + done, std::min(member.size - done, kReadChunk));
        if (got == 0) sizeError(done, false);
        done += got;
      }
    } else {
      // A highly compressed member: allocate only what the stream really yields.
      auto out = std::make_shared<std::string>();
      std::string chunk(static_cast<size_t>(kReadChunk), '\0');
      while (out->size() < member.size) {
        const uint64_t got = readSome(chunk.data(), std::min<uint64_t>(kReadChunk, member.size - out->size()));
        if (got == 0) sizeError(out->size(), false);
        out->append(chunk.data(), static_cast<size_t>(got));
      }
      result = SharedBytes(std::shared_ptr<const std::string>(std::move(out)));
    }
    // One byte more must be the end: a longer stream is an error, and reading to the end makes
    // libzip check the CRC.
    char probe;
    if (readSome(&probe, 1) != 0) sizeError(member.size, true);
    zip_fclose(f);
    return result;
  } catch (...) {
    zip_fclose(f);
    throw;
  }
}

}  // namespace lwb::io
