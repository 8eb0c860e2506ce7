#include "io/pytorch_archive.h"

#include "io/input_error.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <sstream>

namespace lwb::io {
namespace {

using Kind = PickleValue::Kind;
constexpr size_t kMaxRank = 64;

// The archive's top folder ("archive/" since PyTorch 2.0, the file's stem before).
std::string findPrefix(const ZipArchive& zip, int* count) {
  std::string prefix;
  *count = 0;
  for (const ZipMember& m : zip.members()) {
    const size_t slash = m.name.find('/');
    if (slash != std::string::npos && m.name.compare(slash, std::string::npos, "/data.pkl") == 0) {
      prefix = m.name.substr(0, slash);
      ++*count;
    }
  }
  return prefix;
}

struct Leaf {
  std::string name;
  const PickleValue* tensor;
};

// Depth-first, in dict/list order, with an explicit stack (the depth is bounded by the pickle
// reader, but the number of paths through shared sub-trees is not: count visits).
// A dict key as part of a tensor's name: strings and ints as they are, a tuple of them as
// "(a, b)", floats and bools as Python prints them; anything else has no name.
std::optional<std::string> keyText(const PickleValue& key) {
  switch (key.kind) {
    case Kind::String: return key.text;
    case Kind::Int: return std::to_string(key.integer);
    case Kind::Bool: return std::string(key.integer ? "True" : "False");
    case Kind::Float: {
      std::ostringstream out;
      out << key.real;
      return out.str();
    }
    case Kind::Tuple: {
      std::string out = "(";
      for (size_t i = 0; i < key.items.size(); ++i) {
        const auto part = key.items[i]->kind == Kind::Tuple ? std::nullopt : keyText(*key.items[i]);
        if (!part) return std::nullopt;
        out += (i ? ", " : "") + *part;
      }
      return out + (key.items.size() == 1 ? ",)" : ")");
    }
    default: return std::nullopt;
  }
}

// What was left out, for the file's `skipped` list: a reader that drops a tensor without a
// word lets a user believe the listing is the whole checkpoint.
void noteSkipped(std::vector<std::string>* skipped, const std::string& name, const std::string& why) {
  constexpr size_t kMaxNotes = 100;
  if (skipped->size() < kMaxNotes) skipped->push_back((name.empty() ? std::string("(root)") : name) + ": " + why);
  else if (skipped->size() == kMaxNotes) skipped->push_back("… and more");
}

std::vector<Leaf> flatten(const PickleValue& root, const std::string& what, const PytorchLimits& limits,
                          std::set<std::string>* objectClasses, std::vector<std::string>* skipped) {
  std::vector<Leaf> leaves;
  std::vector<std::pair<const PickleValue*, std::string>> todo{{&root, std::string()}};
  uint64_t visits = 0;
  auto join = [](const std::string& base, const std::string& part) { return base.empty() ? part : base + "." + part; };
  while (!todo.empty()) {
    auto [v, name] = std::move(todo.back());
    todo.pop_back();
    if (++visits > limits.maxVisits)
      throw InputError(what + ": more than " + std::to_string(limits.maxVisits) + " entries to walk");
    switch (v->kind) {
      case Kind::Tensor:
        if (!v->unreadableType.empty()) {
          noteSkipped(skipped, name.empty() ? "tensor" : name,
                      "a tensor of " + v->unreadableType + " (complex and quantized tensors are not read)");
          break;
        }
        if (leaves.size() >= limits.maxTensors)
          throw InputError(what + ": more than " + std::to_string(limits.maxTensors) + " tensors");
        leaves.push_back({name.empty() ? "tensor" : name, v});
        break;
      case Kind::List:
      case Kind::Tuple:
        for (size_t i = v->items.size(); i-- > 0;) todo.emplace_back(v->items[i].get(), join(name, std::to_string(i)));
        break;
      case Kind::Dict:
        for (size_t i = v->items.size(); i >= 2; i -= 2) {
          const auto part = keyText(*v->items[i - 2]);
          if (!part) {
            noteSkipped(skipped, name, "an entry whose dict key is neither a string, a number nor a tuple of them");
            continue;
          }
          todo.emplace_back(v->items[i - 1].get(), join(name, *part));
        }
        break;
      case Kind::Object:
        objectClasses->insert(v->text);
        noteSkipped(skipped, name,
                    v->text.starts_with("numpy.") ? "a NumPy array inside the pickle (not read; save it as a tensor or a .npy)"
                                                  : "a pickled Python object (" + v->text + "), not read");
        break;
      default:
        break;  // ints, floats, strings, None: checkpoint bookkeeping
    }
  }
  return leaves;
}

// a·b + c without overflow, for non-negative operands; false when it would exceed int64.
bool mulAdd(int64_t a, int64_t b, int64_t c, int64_t* out) {
  int64_t p = 0;
  return !__builtin_mul_overflow(a, b, &p) && !__builtin_add_overflow(p, c, out);
}

class TensorBuilder {
 public:
  TensorBuilder(const ZipArchive& zip, std::string prefix, uint64_t totalLimit)
      : zip_(zip), prefix_(std::move(prefix)), totalLimit_(totalLimit) {}

  RawTensor build(const Leaf& leaf) {
    const PickleValue& t = *leaf.tensor;
    const PickleValue& storage = *t.items.at(0);
    const std::string where = zip_.what() + ": tensor '" + leaf.name + "': ";
    auto bad = [&](const std::string& msg) { throw InputError(where + msg); };
    const size_t item = elementSize(t.dtype);
    const auto& record = recordFor(storage.text, where);
    // LibTorch would size the storage from the pickle's element count; here it must fit the
    // record that is really there.
    const auto storageNumel = static_cast<uint64_t>(storage.integer);
    if (storageNumel > record.size() / item)
      bad("storage claims " + std::to_string(storageNumel) + " elements of " + std::string(dtypeName(t.dtype)) +
          " but its record holds " + std::to_string(record.size()) + " bytes");
    if (t.sizes.size() > kMaxRank) bad("more than 64 dimensions");
    if (t.storageOffset < 0) bad("negative storage offset");
    int64_t numel = 1;
    for (size_t d = 0; d < t.sizes.size(); ++d) {
      if (t.sizes[d] < 0) bad("negative size in dimension " + std::to_string(d));
      if (t.strides[d] < 0) bad("negative stride in dimension " + std::to_string(d));
      if (!mulAdd(numel, t.sizes[d], 0, &numel)) bad("element count overflows");
    }
    // The last element it addresses, offset + Σ (size−1)·stride, must lie inside the storage.
    if (numel > 0) {
      int64_t last = t.storageOffset;
      for (size_t d = 0; d < t.sizes.size(); ++d)
        if (!mulAdd(t.sizes[d] - 1, t.strides[d], last, &last)) bad("sizes and strides overflow");
      if (static_cast<uint64_t>(last) >= storageNumel)
        bad("sizes, strides and offset reach element " + std::to_string(last) + " of a storage of " +
            std::to_string(storageNumel));
    }
    const uint64_t nbytes = static_cast<uint64_t>(numel) * item;  // numel ≤ 2^63, item ≤ 8: checked below
    if (static_cast<uint64_t>(numel) > totalLimit_ / item || total_ + nbytes > totalLimit_)
      bad("tensors add up to more than " + std::to_string(totalLimit_) + " bytes (limit: max(256 MiB, 64 × file size))");
    total_ += nbytes;

    RawTensor r;
    r.name = leaf.name;
    r.dtype = t.dtype;
    r.shape = t.sizes;
    r.nbytes = static_cast<size_t>(nbytes);
    const auto* base = reinterpret_cast<const std::byte*>(record.view().data()) + static_cast<size_t>(t.storageOffset) * item;
    if (numel == 0 || isCContiguous(t)) {
      r.data = record.at(static_cast<size_t>(t.storageOffset) * item);
      return r;
    }
    std::string out(r.nbytes, '\0');
    gather(base, reinterpret_cast<std::byte*>(out.data()), t.sizes, t.strides, item, numel);
    r.data = ownBytes(std::move(out));
    return r;
  }

 private:
  const SharedBytes& recordFor(const std::string& key, const std::string& where) {
    auto it = records_.find(key);
    if (it != records_.end()) return it->second;
    const std::string name = prefix_ + "/data/" + key;
    const ZipMember* m = zip_.find(name);
    if (!m) throw InputError(where + "storage record '" + name + "' is missing");
    return records_.emplace(key, zip_.read(*m)).first->second;
  }

  static bool isCContiguous(const PickleValue& t) {
    int64_t expected = 1;
    for (size_t d = t.sizes.size(); d-- > 0;) {
      if (t.sizes[d] != 1 && t.strides[d] != expected) return false;
      expected *= t.sizes[d];
    }
    return true;
  }

  static void gather(const std::byte* base, std::byte* dst, const std::vector<int64_t>& sizes,
                     const std::vector<int64_t>& strides, size_t item, int64_t numel) {
    const size_t rank = sizes.size();
    std::vector<int64_t> index(rank, 0);
    int64_t src = 0;
    for (int64_t c = 0; c < numel; ++c) {
      std::memcpy(dst + static_cast<size_t>(c) * item, base + static_cast<size_t>(src) * item, item);
      for (size_t d = rank; d-- > 0;) {
        if (++index[d] < sizes[d]) { src += strides[d]; break; }
        src -= strides[d] * (index[d] - 1);
        index[d] = 0;
      }
    }
  }

  const ZipArchive& zip_;
  std::string prefix_;
  uint64_t totalLimit_;
  uint64_t total_ = 0;
  std::map<std::string, SharedBytes> records_;
};

}  // namespace

bool isPytorchArchive(const ZipArchive& zip) {
  int count = 0;
  findPrefix(zip, &count);
  return count == 1;
}

TensorFile decodePytorchArchive(const ZipArchive& zip, const PytorchLimits& limits) {
  const std::string& what = zip.what();
  int count = 0;
  const std::string prefix = findPrefix(zip, &count);
  if (count == 0) throw InputError(what + ": no <archive>/data.pkl record: not a PyTorch archive");
  if (count > 1) throw InputError(what + ": more than one <archive>/data.pkl record");
  if (zip.find(prefix + "/constants.pkl"))
    throw InputError(what + ": a TorchScript archive (torch.jit.save); save the weights with "
                            "torch.save(model.state_dict(), path) to inspect them");
  if (const ZipMember* order = zip.find(prefix + "/byteorder")) {
    if (order->size > 16) throw InputError(what + ": malformed byteorder record");
    if (zip.read(*order).view() != "little") throw InputError(what + ": big-endian archives are not supported");
  }
  const ZipMember* pkl = zip.find(prefix + "/data.pkl");
  if (pkl->size > limits.maxPickleBytes)
    throw InputError(what + ": data.pkl of " + std::to_string(pkl->size) + " bytes exceeds the limit of " +
                     std::to_string(limits.maxPickleBytes));
  const auto pickle = zip.read(*pkl);
  const auto root = parsePickle(pickle.view(), what + ": data.pkl", limits.pickle);

  std::set<std::string> objectClasses;
  std::vector<std::string> skipped;
  const std::vector<Leaf> leaves = flatten(*root, what, limits, &objectClasses, &skipped);
  if (leaves.empty() && !objectClasses.empty())
    throw InputError(what + ": no tensors outside pickled Python objects (" + *objectClasses.begin() +
                     "); save model.state_dict() rather than the model");
  std::set<std::string_view> names;
  for (const Leaf& l : leaves)
    if (!names.insert(l.name).second) throw InputError(what + ": two tensors are both named '" + l.name + "'");

  // Stride-0 (expanded) tensors can address far more bytes than their storage holds: the
  // materialised total gets the zip-bomb cap.
  const uint64_t totalLimit = std::min(limits.zip.totalBytesCeiling, std::max(limits.zip.totalBytesFloor,
                                                                              limits.zip.maxExpansion * zip.archiveBytes()));
  TensorBuilder builder(zip, prefix, totalLimit);
  TensorFile file;
  file.format = "pytorch";
  file.skipped = std::move(skipped);
  file.tensors.reserve(leaves.size());
  for (const Leaf& l : leaves) file.tensors.push_back(builder.build(l));
  return file;
}

TensorFile decodePytorchArchive(SharedBytes bytes, const std::string& what,
                                const PytorchLimits& limits) {
  const ZipArchive zip(std::move(bytes), what, limits.zip);
  return decodePytorchArchive(zip, limits);
}

}  // namespace lwb::io
