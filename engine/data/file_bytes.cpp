#include "data/file_bytes.h"

#include "io/input_error.h"

#include <zlib.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <vector>

namespace lwb::data {
namespace {

[[noreturn]] void fail(const std::string& what, const std::string& msg) {
  throw InputError(what + ": " + msg);
}

// inflateEnd on every exit path, including the throwing ones.
struct InflateStream {
  z_stream s{};
  bool open = false;
  ~InflateStream() {
    if (open) inflateEnd(&s);
  }
};

}  // namespace

uint64_t checkedFileSize(const std::string& path, uint64_t maxBytes) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const auto status = fs::status(path, ec);
  if (ec || !fs::exists(status)) fail(path, "no such file");
  if (fs::is_directory(status)) fail(path, "is a directory, expected a file");
  if (!fs::is_regular_file(status)) fail(path, "is not a regular file");
  const uint64_t size = fs::file_size(path, ec);
  if (ec) fail(path, "cannot determine the file size (" + ec.message() + ")");
  if (size > maxBytes)
    fail(path, "file of " + std::to_string(size) + " bytes is larger than the limit of " +
                   std::to_string(maxBytes) + " bytes");
  return size;
}

void readExactly(const std::string& path, void* dst, uint64_t size) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, std::string("cannot open for reading (") + std::strerror(errno) + ")");  // e.g. permission denied
  in.read(static_cast<char*>(dst), static_cast<std::streamsize>(size));
  if (static_cast<uint64_t>(in.gcount()) != size)
    fail(path, "short read: expected " + std::to_string(size) + " bytes, got " +
                   std::to_string(in.gcount()));
}

std::string readWholeFile(const std::string& path, uint64_t maxBytes) {
  const uint64_t size = checkedFileSize(path, maxBytes);
  std::string bytes(static_cast<size_t>(size), '\0');
  readExactly(path, bytes.data(), size);
  return bytes;
}

bool hasGzipMagic(const std::string& bytes) {
  return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
         static_cast<unsigned char>(bytes[1]) == 0x8b;
}

std::string gunzip(const std::string& bytes, const std::string& what, uint64_t maxOutBytes) {
  if (!hasGzipMagic(bytes)) fail(what, "not gzip-compressed (no 1f 8b header)");
  // z_stream counts in 32-bit uInt; our file limit is far below that.
  if (bytes.size() > UINT_MAX) fail(what, "compressed file too large");
  InflateStream z;
  if (inflateInit2(&z.s, 16 + MAX_WBITS) != Z_OK) fail(what, "cannot initialise zlib");
  z.open = true;
  z.s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  z.s.avail_in = static_cast<uInt>(bytes.size());

  std::string out;
  std::vector<unsigned char> chunk(1 << 18);
  // Every iteration either consumes input, produces output, or ends with an error:
  // inflate returns Z_BUF_ERROR when it can make no progress, so this cannot spin.
  while (true) {
    z.s.next_out = chunk.data();
    z.s.avail_out = static_cast<uInt>(chunk.size());
    const int ret = inflate(&z.s, Z_NO_FLUSH);
    if (ret == Z_NEED_DICT || ret == Z_DATA_ERROR || ret == Z_STREAM_ERROR || ret == Z_MEM_ERROR)
      fail(what, std::string("corrupt gzip data (") + (z.s.msg ? z.s.msg : "zlib error") + ")");
    const size_t produced = chunk.size() - z.s.avail_out;
    if (out.size() + produced > maxOutBytes)
      fail(what, "gzip data inflates to more than the limit of " + std::to_string(maxOutBytes) +
                     " bytes");
    out.append(reinterpret_cast<const char*>(chunk.data()), produced);
    if (ret == Z_STREAM_END) {
      if (z.s.avail_in == 0) break;
      const std::string rest(reinterpret_cast<const char*>(z.s.next_in), std::min<uInt>(z.s.avail_in, 2));
      if (!hasGzipMagic(rest))
        fail(what, std::to_string(z.s.avail_in) + " bytes of trailing garbage after the gzip data");
      if (inflateReset(&z.s) != Z_OK) fail(what, "cannot reset zlib");
      continue;
    }
    if (ret == Z_BUF_ERROR || (produced == 0 && z.s.avail_in == 0))
      fail(what, "truncated gzip data (the stream ends before its end marker)");
  }
  return out;
}

std::string readMaybeGzipped(const std::string& path, uint64_t maxBytes) {
  std::string bytes = readWholeFile(path, maxBytes);
  const bool gzName = path.size() >= 3 && path.compare(path.size() - 3, 3, ".gz") == 0;
  if (hasGzipMagic(bytes)) return gunzip(bytes, path, maxBytes);
  if (gzName) fail(path, "not gzip-compressed (no 1f 8b header) although the name ends in .gz");
  return bytes;
}

}  // namespace lwb::data
