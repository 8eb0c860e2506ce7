#include "io/model_folder.h"

#include "io/json_read.h"
#include "io/input_error.h"
#include "io/tensor_file.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace lwb::io {

namespace fs = std::filesystem;

namespace {

// Whether dir/name is a file. A folder we may not search answers every lookup with EACCES,
// which is_regular_file folds into "no": say so instead of "no model files in it".
bool hasFile(const fs::path& dir, const std::string& name) {
  std::error_code ec;
  const bool file = fs::is_regular_file(dir / name, ec);
  if (ec == std::errc::permission_denied) throw InputError(dir.string() + ": permission denied (cannot look inside the folder)");
  return file;
}

}  // namespace

TensorFile readModelFolder(const fs::path& dir, uint64_t maxBytes) {
  const std::string what = dir.string();
  if (std::error_code ec; fs::directory_iterator(dir, ec), ec == std::errc::permission_denied)
    throw InputError(what + ": permission denied (cannot list the folder)");
  fs::path index;
  for (const char* name : {"model.safetensors.index.json", "pytorch_model.bin.index.json"})
    if (hasFile(dir, name)) {
      index = dir / name;
      break;
    }
  if (index.empty()) {
    // A single-file model: the folder stands for its weights.
    for (const char* name : {"model.safetensors", "pytorch_model.bin"})
      if (hasFile(dir, name)) {
        TensorFile f = readTensorFile(dir / name, maxBytes);
        f.metadata["index"] = name;
        return f;
      }
    throw InputError(what + ": a folder, but no model.safetensors.index.json, pytorch_model.bin.index.json, "
                            "model.safetensors or pytorch_model.bin in it");
  }
  const std::string indexName = index.filename().string();
  const nlohmann::json j = jsonio::readFile(index.string());
  const auto map = j.is_object() ? j.find("weight_map") : j.end();
  if (map == j.end() || !map->is_object() || map->empty())
    throw InputError(index.string() + ": no \"weight_map\" object naming the shards");
  // Shards in first-mention order; each tensor's shard.
  std::vector<std::string> shards;
  std::map<std::string, std::vector<std::string>> wanted;  // shard -> tensor names in map order
  std::vector<std::pair<std::string, std::string>> order;   // (tensor, shard)
  for (const auto& [tensor, shard] : map->items()) {
    if (!shard.is_string())
      throw InputError(index.string() + ": weight_map[\"" + tensor + "\"] is not a file name");
    const std::string s = shard.get<std::string>();
    // Only plain names in this folder: a path could reach any file on the machine.
    if (s.empty() || s.find('/') != std::string::npos || s.find('\\') != std::string::npos || s == "." || s == "..")
      throw InputError(index.string() + ": shard \"" + s + "\" of " + tensor + " is not a file name in the folder");
    if (s == indexName || s.ends_with(".index.json"))
      throw InputError(index.string() + ": shard \"" + s + "\" of " + tensor + " is an index itself (a cycle)");
    if (!wanted.count(s)) shards.push_back(s);
    wanted[s].push_back(tensor);
    order.emplace_back(tensor, s);
  }
  for (const std::string& s : shards)
    if (!hasFile(dir, s))
      throw InputError(index.string() + ": shard " + s + " (of " + wanted[s].front() + " and " +
                       std::to_string(wanted[s].size() - 1) + " more) is missing from " + what);
  TensorFile out;
  out.path = what;
  out.format = "huggingface";
  out.metadata["index"] = indexName;
  out.metadata["shards"] = std::to_string(shards.size());
  std::map<std::string, RawTensor> found;
  uint64_t budget = maxBytes;
  for (const std::string& s : shards) {
    std::error_code ec;
    const uint64_t size = fs::file_size(dir / s, ec);
    if (ec || size > budget) throw InputError(what + ": the shards exceed the " + std::to_string(maxBytes >> 30) + " GiB read limit at " + s);
    budget -= size;
    TensorFile shard = readTensorFile(dir / s, maxBytes);
    for (const std::string& note : shard.skipped) out.skipped.push_back(s + ": " + note);
    const std::set<std::string> names(wanted[s].begin(), wanted[s].end());
    for (RawTensor& t : shard.tensors)
      if (names.count(t.name)) found[t.name] = std::move(t);  // shares the shard's buffer
    for (const std::string& name : wanted[s])
      if (!found.count(name)) throw InputError(index.string() + ": " + name + " is mapped to " + s + ", which does not hold it");
  }
  for (const auto& [tensor, shard] : order) out.tensors.push_back(std::move(found[tensor]));
  return out;
}

}  // namespace lwb::io
