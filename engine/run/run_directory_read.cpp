// Reading side of the run directory (app, tests, resume). Files may come from a crashed or
// still-running trainer, or from anywhere else: a torn last metrics line is expected and
// skipped; everything else that is malformed is an InputError, and the spectra index is
// checked against spectra.bin's real size before any read.
#include "run/run_directory.h"

#include "io/input_error.h"
#include "run/spectra_format.h"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

namespace lwb::run {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr uintmax_t kMaxIndexBytes = uintmax_t{256} << 20;

void requireRunDir(const std::string& runDir) {
  std::error_code ec;
  if (!fs::is_directory(runDir, ec)) throw InputError(runDir + ": no such run directory");
}

bool blank(const std::string& line) {
  return line.find_first_not_of(" \t\r") == std::string::npos;
}

// A non-negative integer member of an index entry, else an InputError naming the entry.
uint64_t indexInteger(const json& e, const char* key, const std::string& where) {
  const auto it = e.find(key);
  if (it == e.end() || !it->is_number_unsigned())
    throw InputError(where + ": '" + key + "' must be a non-negative integer");
  return it->get<uint64_t>();
}

}  // namespace

std::vector<json> readMetrics(const std::string& runDir) {
  requireRunDir(runDir);
  const std::string path = (fs::path(runDir) / "metrics.jsonl").string();
  std::vector<json> rows;
  std::ifstream in(path, std::ios::binary);
  if (!in) return rows;  // nothing logged yet

  std::optional<size_t> malformed;  // forgiven only if no row follows it
  std::string line;
  for (size_t lineNo = 1; std::getline(in, line); ++lineNo) {
    if (blank(line)) continue;
    if (malformed)
      throw InputError(path + ": line " + std::to_string(*malformed) + " is not a valid JSON object");
    json row = json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (row.is_discarded() || !row.is_object()) malformed = lineNo;
    else rows.push_back(std::move(row));
  }
  return rows;
}

std::vector<SpectraIndexEntry> readSpectraIndex(const std::string& runDir, uint64_t* binFloatsOut) {
  requireRunDir(runDir);
  const std::string indexPath = (fs::path(runDir) / "spectra.json").string();
  const std::string binPath = (fs::path(runDir) / "spectra.bin").string();
  std::vector<SpectraIndexEntry> entries;
  if (binFloatsOut) *binFloatsOut = 0;
  std::error_code ec;
  if (!fs::exists(indexPath, ec)) return entries;  // no snapshot yet, or spectra_every = 0

  if (!fs::is_regular_file(indexPath, ec) || fs::file_size(indexPath, ec) > kMaxIndexBytes)
    throw InputError(indexPath + ": not a regular file or too large");
  std::ifstream indexIn(indexPath, std::ios::binary);
  std::ostringstream text;
  text << indexIn.rdbuf();
  const json index = json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  if (index.is_discarded()) throw InputError(indexPath + ": not valid JSON");
  if (!index.is_array()) throw InputError(indexPath + ": expected a JSON array");

  // A torn trailing float (crash mid-write) is not addressable; whole floats only.
  const uint64_t binFloats = fs::exists(binPath, ec) ? fs::file_size(binPath, ec) / 4 : 0;
  if (ec) throw InputError(binPath + ": cannot read size (" + ec.message() + ")");
  if (binFloatsOut) *binFloatsOut = binFloats;

  for (size_t i = 0; i < index.size(); ++i) {
    const json& e = index[i];
    const std::string where = indexPath + ": entry " + std::to_string(i);
    if (!e.is_object()) throw InputError(where + ": expected an object");
    const auto step = e.find("step");
    if (step == e.end() || !step->is_number_integer() ||
        (step->is_number_unsigned() && step->get<uint64_t>() > uint64_t(INT64_MAX)))
      throw InputError(where + ": 'step' must be an integer");
    const auto name = e.find("name");
    if (name == e.end() || !name->is_string()) throw InputError(where + ": 'name' must be a string");
    const uint64_t offset = indexInteger(e, "offset", where);
    const uint64_t count = indexInteger(e, "count", where);
    // Written so that it cannot overflow: offset + count <= binFloats.
    if (offset > binFloats || count > binFloats - offset)
      throw InputError(where + ": offset " + std::to_string(offset) + " + count " + std::to_string(count) +
                       " is beyond spectra.bin (" + std::to_string(binFloats) + " floats)");
    entries.push_back({step->get<int64_t>(), name->get<std::string>(), offset, count});
  }
  return entries;
}

std::map<int64_t, std::map<std::string, std::vector<float>>> readSpectra(const std::string& runDir) {
  const std::vector<SpectraIndexEntry> index = readSpectraIndex(runDir);
  const std::string binPath = (fs::path(runDir) / "spectra.bin").string();
  std::map<int64_t, std::map<std::string, std::vector<float>>> out;
  if (index.empty()) return out;
  std::ifstream bin(binPath, std::ios::binary);
  for (const SpectraIndexEntry& e : index) {
    std::string bytes(e.count * 4, '\0');
    if (e.count > 0) {
      bin.seekg(static_cast<std::streamoff>(e.offset * 4));
      bin.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
      if (!bin) throw InputError(binPath + ": read failed at float " + std::to_string(e.offset));
    }
    // A step recorded twice (e.g. a final snapshot on a periodic step): the later one wins.
    out[e.step][e.name] = detail::decodeFloat32LE(std::move(bytes));
  }
  return out;
}

}  // namespace lwb::run
