// Fuzz harnesses for the project's own file kinds (issue 33), shared by the libFuzzer targets
// (fuzz/) and the ctest replay of the kept corpus (tests/engine/tst_fuzz_corpus.cpp):
//   runJson         every JSON the project reads (configs, sweep specs, presets, checkpoint
//                   __metadata__ configs, status/summary files) goes through jsonio::parse;
//                   what parses must survive dumpReadable → parse unchanged.
//   runSpectraIndex the bytes as a run folder's spectra.json beside a 64-float spectra.bin.
//   runIndex        the bytes as an index.sqlite, opened read-only and read-write.
// Allowed outcomes: success or lwb::InputError. Anything else is a finding.
#pragma once

#include "io/json_read.h"
#include "io/input_error.h"
#include "run/run_directory_reader.h"
#include "sweep/run_index.h"

#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>

namespace lwb::fuzz {

inline void runJson(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  nlohmann::json value;
  try {
    value = jsonio::parse(text, "fuzz.json");
  } catch (const InputError&) {
    return;
  }
  if (jsonio::parse(jsonio::dumpReadable(value), "dump") != value)
    throw std::logic_error("dumpReadable → parse changed the value");
}

// A fresh scratch folder per input (removed afterwards), under $TMPDIR.
class ScratchDir {
 public:
  ScratchDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "lwb-fuzz-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::filesystem::path& path() const { return path_; }
  void write(const char* name, const uint8_t* data, size_t size) const {
    std::ofstream(path_ / name, std::ios::binary).write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }

 private:
  std::filesystem::path path_;
};

inline void runSpectraIndex(const uint8_t* data, size_t size) {
  const ScratchDir dir;
  dir.write("spectra.json", data, size);
  const std::string floats(64 * 4, '\x3f');
  dir.write("spectra.bin", reinterpret_cast<const uint8_t*>(floats.data()), floats.size());
  dir.write("metrics.jsonl", nullptr, 0);
  try {
    const run::RunDirectoryReader reader(dir.path());
    uint64_t binFloats = 0;
    for (const auto& e : reader.spectraIndex(&binFloats))
      if (e.offset + e.count > binFloats) throw std::logic_error("an accepted entry points past spectra.bin");
    (void)reader.spectraSince(-1);
  } catch (const InputError&) {
  }
}

inline void runIndex(const uint8_t* data, size_t size) {
  const ScratchDir dir;
  dir.write("index.sqlite", data, size);
  const auto file = dir.path() / "index.sqlite";
  for (const auto access : {sweep::RunIndex::Access::ReadOnly, sweep::RunIndex::Access::ReadWrite}) {
    try {
      sweep::RunIndex index(file, access);
      (void)index.rows();
      (void)index.count();
      if (access == sweep::RunIndex::Access::ReadWrite) {
        sweep::IndexRow r;
        r.path = "/fuzz/run";
        r.id = "run";
        r.status = "finished";
        index.upsert(r);
        (void)index.rows();
      }
    } catch (const InputError&) {
    }
  }
}

}  // namespace lwb::fuzz
