#include "io/tensor_convert.h"

#include "io/input_error.h"

#include <ATen/ops/empty.h>
#include <ATen/ops/from_blob.h>

#include <bit>
#include <cstring>

namespace lwb::io {
namespace {

static_assert(std::endian::native == std::endian::little,
              "records hold little-endian bytes; a big-endian host would need byte swaps here");

at::Tensor cpuDenseContiguous(const at::Tensor& t) {
  at::Tensor c = t;
  if (c.is_sparse() || c.layout() != at::kStrided) c = c.to_dense();
  if (!c.device().is_cpu()) c = c.to(at::kCPU);
  return c.contiguous();
}

RawTensor recordOf(std::string name, const at::Tensor& c) {
  const auto d = fromScalarType(c.scalar_type());
  if (!d) throw InputError("tensor '" + name + "': dtype " + std::string(c.dtype().name()) + " is not supported");
  RawTensor r;
  r.name = std::move(name);
  r.dtype = *d;
  r.shape.assign(c.sizes().begin(), c.sizes().end());
  r.nbytes = static_cast<size_t>(c.numel()) * elementSize(*d);
  // The aliasing constructor: the control block owns a tensor handle, the pointer is its data.
  auto owner = std::make_shared<at::Tensor>(c);
  r.data = std::shared_ptr<const std::byte>(owner, static_cast<const std::byte*>(c.data_ptr()));
  return r;
}

}  // namespace

at::ScalarType toScalarType(DType d) {
  switch (d) {
    case DType::F64: return at::kDouble;
    case DType::F32: return at::kFloat;
    case DType::F16: return at::kHalf;
    case DType::BF16: return at::kBFloat16;
    case DType::I64: return at::kLong;
    case DType::I32: return at::kInt;
    case DType::I16: return at::kShort;
    case DType::I8: return at::kChar;
    case DType::U8: return at::kByte;
    case DType::Bool: return at::kBool;
  }
  return at::kFloat;
}

std::optional<DType> fromScalarType(at::ScalarType t) {
  for (const DType d : kAllDTypes)
    if (toScalarType(d) == t) return d;
  return std::nullopt;
}

at::Tensor toTensor(const RawTensor& raw) {
  at::Tensor t = at::empty(raw.shape, at::TensorOptions().dtype(toScalarType(raw.dtype)));
  if (static_cast<size_t>(t.numel()) * elementSize(raw.dtype) != raw.nbytes)
    throw InputError("tensor '" + raw.name + "': holds " + std::to_string(raw.nbytes) +
                     " bytes, its shape and dtype need " +
                     std::to_string(t.numel() * static_cast<int64_t>(elementSize(raw.dtype))));
  if (raw.nbytes > 0) std::memcpy(t.data_ptr(), raw.data.get(), raw.nbytes);
  if (raw.dtype == DType::Bool) {
    // A bool byte other than 0/1 is undefined behaviour in LibTorch's kernels.
    auto* p = static_cast<unsigned char*>(t.data_ptr());
    for (size_t i = 0; i < raw.nbytes; ++i) p[i] = p[i] != 0;
  }
  return t;
}

at::Tensor asTensor(const RawTensor& raw) {
  const size_t item = elementSize(raw.dtype);
  const auto address = reinterpret_cast<uintptr_t>(raw.data.get());
  if (raw.dtype == DType::Bool || raw.nbytes == 0 || address % item != 0) return toTensor(raw);
  // RawTensor::numel saturates instead of overflowing on a hostile shape; dividing the byte
  // count keeps this comparison overflow-free as well.
  if (raw.nbytes % item != 0 || static_cast<uint64_t>(raw.numel()) != raw.nbytes / item) return toTensor(raw);  // toTensor reports it
  auto keep = raw.data;
  // from_blob's data is non-const; the tensor is documented as read-only.
  return at::from_blob(const_cast<std::byte*>(raw.data.get()), raw.shape, [keep](void*) mutable { keep.reset(); },
                       at::TensorOptions().dtype(toScalarType(raw.dtype)));
}

RawTensor fromTensor(std::string name, const at::Tensor& t) {
  if (!t.defined()) throw InputError("tensor '" + name + "': undefined tensor");
  at::Tensor c = cpuDenseContiguous(t);
  // contiguous()/to() return `t` itself when nothing had to change; then copy, so the record
  // is a snapshot that later in-place updates of `t` cannot reach.
  const bool strided = !t.is_sparse() && t.layout() == at::kStrided;
  if (c.is_same(t) || (strided && c.storage().is_alias_of(t.storage())))
    c = c.clone(at::MemoryFormat::Contiguous);
  return recordOf(std::move(name), c);
}

}  // namespace lwb::io
