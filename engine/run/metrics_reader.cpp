// metrics.jsonl, read incrementally (a follower tailing a live run) or whole (resume,
// Compare). The writer appends one line per logged step and flushes it, so the only
// malformed line a healthy run leaves is a torn last one (a crash mid-write): it is never
// consumed until its newline arrives, and a whole-file read forgives it.
#include "run/run_directory_reader.h"

#include "io/json_read.h"
#include "io/input_error.h"
#include "run/run_layout.h"

#include <algorithm>
#include <fstream>
#include <string_view>

namespace lwb::run {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// Enough of the last consumed line to tell the same file (appended to) from a rewritten one.
constexpr uint64_t kTailBytes = 64;

uint64_t fnv1a(std::string_view bytes) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (const char c : bytes) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
  return h;
}

std::string readAt(std::ifstream& in, uint64_t offset, uint64_t count) {
  std::string bytes(static_cast<size_t>(count), '\0');
  in.clear();
  in.seekg(static_cast<std::streamoff>(offset));
  in.read(bytes.data(), static_cast<std::streamsize>(count));
  bytes.resize(static_cast<size_t>(std::max<std::streamsize>(in.gcount(), 0)));
  return bytes;
}

uint64_t tailHash(std::ifstream& in, uint64_t offset) {
  const uint64_t n = std::min(offset, kTailBytes);
  return fnv1a(readAt(in, offset - n, n));
}

bool blank(std::string_view line) { return line.find_first_not_of(" \t\r") == std::string_view::npos; }

// One complete line into the chunk: a row, a malformed line, or nothing (blank).
void takeLine(std::string_view line, uint64_t lineNo, MetricsChunk& out) {
  if (blank(line)) return;
  auto row = jsonio::tryParse(line);
  if (!row || !row->is_object()) {
    out.malformedLines.push_back(lineNo);
    return;
  }
  out.rows.push_back(std::move(*row));
  out.lastRowLine = lineNo;
}

// From `offset` on, the position just after the next newline (a line longer than any chunk),
// or nullopt when the file ends first (still being written).
std::optional<uint64_t> endOfLine(std::ifstream& in, uint64_t offset, uint64_t size) {
  constexpr uint64_t kBlock = uint64_t{1} << 20;
  while (offset < size) {
    const std::string block = readAt(in, offset, std::min(kBlock, size - offset));
    if (block.empty()) return std::nullopt;
    if (const auto nl = block.find('\n'); nl != std::string::npos) return offset + nl + 1;
    offset += block.size();
  }
  return std::nullopt;
}

}  // namespace

MetricsChunk RunDirectoryReader::metricsSince(const MetricsCursor& from, uint64_t maxBytes) const {
  requireDirectory();
  MetricsChunk out;
  out.next = from;
  const fs::path path = file(layout::kMetricsFile);
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return out;  // nothing logged yet
  // The size of the file this stream reads, even if a new one replaces it meanwhile.
  const std::streamoff end = in.tellg();
  if (end < 0) throw InputError(path.string() + ": cannot read size");
  const uint64_t size = static_cast<uint64_t>(end);

  MetricsCursor& at = out.next;
  // A resumed run keeps rows up to its checkpoint and writes the file anew; a copy may
  // truncate it. Either way the bytes consumed so far are no longer the file's.
  if (at.offset > size || (at.offset > 0 && tailHash(in, at.offset) != at.tailHash)) {
    at = MetricsCursor();
    out.restarted = true;
  }
  maxBytes = std::max<uint64_t>(maxBytes, 1);
  const uint64_t start = at.offset;
  const std::string chunk = readAt(in, at.offset, std::min(maxBytes, size - at.offset));
  const size_t lastNewline = chunk.rfind('\n');
  uint64_t consumed = 0;
  if (lastNewline != std::string::npos) {
    const std::string_view all(chunk.data(), lastNewline + 1);
    for (size_t begin = 0; begin < all.size();) {
      const size_t end = all.find('\n', begin);
      takeLine(all.substr(begin, end - begin), ++at.lines, out);
      begin = end + 1;
    }
    consumed = lastNewline + 1;
  } else if (chunk.size() == maxBytes) {
    // One line longer than a whole chunk is no metrics row: skipped once it is complete.
    if (const auto end = endOfLine(in, at.offset, size)) {
      out.malformedLines.push_back(++at.lines);
      consumed = *end - at.offset;
    }
  }
  if (consumed > 0) {
    at.offset += consumed;
    at.tailHash = tailHash(in, at.offset);
  }
  // Nothing consumable left now: the end reached, or only a line still being written.
  out.caughtUp = consumed == 0 || std::max(start + chunk.size(), at.offset) >= size;
  return out;
}

std::vector<json> RunDirectoryReader::metrics() const {
  std::vector<json> rows;
  MetricsCursor cursor;
  uint64_t firstMalformed = 0, lastRow = 0;
  for (;;) {
    MetricsChunk chunk = metricsSince(cursor);
    if (chunk.restarted) {  // rewritten while being read: read it again from the top
      rows.clear();
      firstMalformed = lastRow = 0;
    }
    for (auto& r : chunk.rows) rows.push_back(std::move(r));
    if (!chunk.malformedLines.empty() && firstMalformed == 0) firstMalformed = chunk.malformedLines.front();
    lastRow = std::max(lastRow, chunk.lastRowLine);
    const bool progressed = chunk.next.offset != cursor.offset || chunk.restarted;
    cursor = chunk.next;
    if (chunk.caughtUp || !progressed) break;
  }
  // A last line without its newline: a row if it parses (files written by other tools),
  // else a torn write, forgiven like a malformed last line.
  const fs::path path = file(layout::kMetricsFile);
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  const std::streamoff end = in ? static_cast<std::streamoff>(in.tellg()) : std::streamoff(0);
  const uint64_t size = end > 0 ? static_cast<uint64_t>(end) : 0;
  if (size > cursor.offset && size - cursor.offset <= kMetricsChunkBytes) {
    MetricsChunk last;
    takeLine(readAt(in, cursor.offset, size - cursor.offset), cursor.lines + 1, last);
    if (!last.rows.empty()) {
      rows.push_back(std::move(last.rows.front()));
      lastRow = last.lastRowLine;
    }
  }
  if (firstMalformed != 0 && firstMalformed < lastRow)
    throw InputError(path.string() + ": line " + std::to_string(firstMalformed) + " is not a valid JSON object");
  return rows;
}

}  // namespace lwb::run
