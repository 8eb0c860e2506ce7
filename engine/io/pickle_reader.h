// A restricted reader for the pickles inside PyTorch zip archives (`torch.save`, protocol 2).
// Torch-free, and it executes nothing: GLOBAL names become inert values, REDUCE/NEWOBJ of a
// name this reader does not know yields an opaque Object (its arguments are dropped), BUILD
// state is ignored. Only what state dicts and checkpoints are made of is modelled: None,
// bools, ints, floats, strings, tuples, lists, dicts (OrderedDict included), storages
// (persistent ids) and tensors (torch._utils._rebuild_tensor_v2 / _rebuild_parameter).
//
// Why not LibTorch's Unpickler: in 1.13 it cannot read `torch.save(model.state_dict())` (the
// OrderedDict's `_metadata` BUILD ends in "Expected GenericDict but got None"), and it trusts
// the stream (stack underflows, dict pairs, string lengths allocated before they are read).
#pragma once

#include "io/raw_tensor.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace lwb::io {

struct PickleLimits {
  uint64_t maxValues = 2'000'000;  // values created (each op creates at most one)
  uint32_t maxDepth = 32;          // container nesting
};

struct PickleValue {
  enum class Kind { None, Bool, Int, Float, String, Tuple, List, Dict, Global, Object, Storage, Tensor };
  Kind kind = Kind::None;
  int64_t integer = 0;  // Bool, Int; Storage: numel (elements of dtype)
  double real = 0;      // Float
  std::string text;     // String; Global: "module.name"; Storage: record key; Object: class
  // Tuple/List: elements. Dict: key0, value0, key1, value1, ... in insertion order.
  // Tensor: {storage}.
  std::vector<std::shared_ptr<PickleValue>> items;
  DType dtype = DType::F32;  // Storage (and Global of a storage type), Tensor
  int64_t storageOffset = 0;  // Tensor, in elements
  std::vector<int64_t> sizes, strides;  // Tensor
  // Storage/Tensor of a torch storage class this reader does not decode (complex, quantized):
  // its class name; the archive reader lists such a tensor as skipped instead of failing.
  std::string unreadableType;
  // Bookkeeping that keeps the value graph a finite tree-like DAG: a list/dict can be filled
  // only until it is placed inside another container, so no cycle can form and `depth` is exact.
  bool placed = false;
  uint32_t depth = 0;
};

// Parses one pickle. Throws InputError("<what>: ...") for anything malformed, unsupported
// (protocol-0 text opcodes, sets, storage classes not named torch.*Storage) or beyond the
// limits.
std::shared_ptr<PickleValue> parsePickle(std::string_view bytes, const std::string& what,
                                         const PickleLimits& limits = {});

}  // namespace lwb::io
