// Builds zip archives byte by byte for the reader tests, so that every header field can be
// made to lie (sizes, CRC, method, names). Stored or raw-deflated members (zlib).
#pragma once

#include <zlib.h>

#include <cstdint>
#include <string>
#include <vector>

namespace lwb::test {

struct ZipEntry {
  std::string name;
  std::string data;  // uncompressed
  bool deflate = false;
  // Overrides for the headers (local and central agree, as libzip checks that).
  int64_t declaredSize = -1;  // uncompressed size in the headers
  int64_t crc = -1;
  int method = -1;
  uint16_t flags = 0;  // bit 0: encrypted
};

inline void putLe(std::string& out, uint64_t v, int bytes) {
  for (int k = 0; k < bytes; ++k) out.push_back(static_cast<char>((v >> (8 * k)) & 0xff));
}

inline std::string rawDeflate(const std::string& data) {
  z_stream s{};
  deflateInit2(&s, Z_BEST_COMPRESSION, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&s, data.size()) + 16, '\0');
  s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  s.avail_in = static_cast<uInt>(data.size());
  s.next_out = reinterpret_cast<Bytef*>(out.data());
  s.avail_out = static_cast<uInt>(out.size());
  deflate(&s, Z_FINISH);
  out.resize(s.total_out);
  deflateEnd(&s);
  return out;
}

inline std::string makeZip(const std::vector<ZipEntry>& entries) {
  std::string out, central;
  for (const ZipEntry& e : entries) {
    const std::string payload = e.deflate ? rawDeflate(e.data) : e.data;
    const uint32_t crc = e.crc >= 0 ? static_cast<uint32_t>(e.crc)
                                    : static_cast<uint32_t>(crc32(0, reinterpret_cast<const Bytef*>(e.data.data()),
                                                                  static_cast<uInt>(e.data.size())));
    const uint64_t size = e.declaredSize >= 0 ? static_cast<uint64_t>(e.declaredSize) : e.data.size();
    const int method = e.method >= 0 ? e.method : (e.deflate ? 8 : 0);
    const uint64_t offset = out.size();
    auto common = [&](std::string& h) {
      putLe(h, 20, 2);  // version needed
      putLe(h, e.flags, 2);
      putLe(h, static_cast<uint64_t>(method), 2);
      putLe(h, 0, 2);  // time
      putLe(h, 0x21, 2);  // date (1980-01-01)
      putLe(h, crc, 4);
      putLe(h, payload.size(), 4);
      putLe(h, size, 4);
      putLe(h, e.name.size(), 2);
      putLe(h, 0, 2);  // extra length
    };
    putLe(out, 0x04034b50, 4);
    common(out);
    out += e.name + payload;
    putLe(central, 0x02014b50, 4);
    putLe(central, 20, 2);  // version made by
    common(central);
    putLe(central, 0, 2);  // comment length
    putLe(central, 0, 2);  // disk
    putLe(central, 0, 2);  // internal attributes
    putLe(central, 0, 4);  // external attributes
    putLe(central, offset, 4);
    central += e.name;
  }
  const uint64_t cdOffset = out.size();
  out += central;
  putLe(out, 0x06054b50, 4);
  putLe(out, 0, 2);
  putLe(out, 0, 2);
  putLe(out, entries.size(), 2);
  putLe(out, entries.size(), 2);
  putLe(out, central.size(), 4);
  putLe(out, cdOffset, 4);
  putLe(out, 0, 2);
  return out;
}

}  // namespace lwb::test
