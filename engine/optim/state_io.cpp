#include "optim/state_io.h"

#include <ATen/ops/isfinite.h>

#include <sstream>

namespace lwb::optim {

namespace {
std::string shapeText(at::IntArrayRef s) {
  std::ostringstream os;
  os << '[';
  for (size_t i = 0; i < s.size(); ++i) os << (i ? ", " : "") << s[i];
  os << ']';
  return os.str();
}
}  // namespace

const at::Tensor& StateIn::find(const std::string& key) const {
  const auto it = tensors_.find(key);
  if (it == tensors_.end()) throw InputError("checkpoint: missing tensor '" + key + "'");
  return it->second;
}

at::Tensor StateIn::take(const std::string& key, const at::Tensor& like) {
  if (!has(key)) return {};
  const auto& t = find(key);
  taken_.insert(key);
  if (t.sizes() != like.sizes())
    throw InputError("checkpoint: tensor '" + key + "' has shape " + shapeText(t.sizes()) + ", the model expects " +
                     shapeText(like.sizes()));
  if (!at::isFloatingType(t.scalar_type()))
    throw InputError("checkpoint: tensor '" + key + "' is not floating point");
  if (t.numel() > 0 && !at::isfinite(t).all().item<bool>())
    throw InputError("checkpoint: tensor '" + key + "' holds NaN or infinite values");
  return t.to(like.options()).clone();
}

int64_t StateIn::takeCount(const std::string& key) {
  const auto& t = find(key);
  taken_.insert(key);
  if (t.dim() != 0 || t.scalar_type() != at::kLong) throw InputError("checkpoint: tensor '" + key + "' is not a 0-d int64");
  const auto v = t.item<int64_t>();
  if (v < 0) throw InputError("checkpoint: tensor '" + key + "' is negative");
  return v;
}

at::Tensor StateIn::takeBytes(const std::string& key) {
  const auto& t = find(key);
  taken_.insert(key);
  if (t.dim() != 1 || t.scalar_type() != at::kByte) throw InputError("checkpoint: tensor '" + key + "' is not a uint8 vector");
  return t.contiguous().clone();
}

std::vector<std::string> StateIn::unused(const std::string& prefix) const {
  std::vector<std::string> out;
  for (const auto& [key, t] : tensors_)
    if (!taken_.count(key) && key.rfind(prefix, 0) == 0) out.push_back(key);
  return out;
}

}  // namespace lwb::optim
