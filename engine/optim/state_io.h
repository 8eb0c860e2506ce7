// Resumable training state as named tensors, the unit a checkpoint stores. Writers fill a
// TensorMap; readers take their keys out of a StateIn, which checks each tensor against the
// tensor it will replace (a checkpoint is a file from disk: shapes and dtypes are untrusted)
// and remembers which keys were used, so leftovers from another config are reported.
#pragma once

#include "io/input_error.h"

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace lwb::optim {

using TensorMap = std::map<std::string, at::Tensor>;

class StateIn {
 public:
  explicit StateIn(const TensorMap& tensors) : tensors_(tensors) {}
  bool has(const std::string& key) const { return tensors_.count(key) != 0; }
  // The stored tensor converted to `like`'s dtype and device, or an undefined tensor when the
  // key is absent. InputError when its shape differs from `like`'s or it is not finite.
  at::Tensor take(const std::string& key, const at::Tensor& like);
  // A stored 0-d integer (step counters). InputError when absent or not a 0-d integer.
  int64_t takeCount(const std::string& key);
  // A stored uint8 blob (generator states) as is. InputError when absent or not uint8.
  at::Tensor takeBytes(const std::string& key);
  // Keys never taken (with the given prefix), sorted.
  std::vector<std::string> unused(const std::string& prefix = {}) const;

 private:
  const at::Tensor& find(const std::string& key) const;
  const TensorMap& tensors_;
  std::set<std::string> taken_;
};

}  // namespace lwb::optim
