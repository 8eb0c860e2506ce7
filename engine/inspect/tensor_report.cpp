#include "inspect/tensor_report.h"

#include "io/tensor_convert.h"

#include <ATen/ops/isfinite.h>

namespace lwb::inspect {

TensorReport reportTensor(const io::RawTensor& raw, bool keepSingularValues) {
  TensorReport r{raw.name, raw.shape, std::string(io::dtypeName(raw.dtype)), std::nullopt, {}, {}};
  if (raw.shape.size() != 2) return r;
  if (raw.dtype == io::DType::Bool) {
    r.note = "boolean matrix; no spectrum";
    return r;
  }
  const auto w = io::asTensor(raw);  // read-only view into the file buffer (no copy)
  if (w.numel() > 0 && io::isFloating(raw.dtype) && !at::isfinite(w).all().item<bool>()) {
    r.note = "holds NaN or infinite values; no spectrum";
    return r;
  }
  r.stats = spectral::matrixStats(w);
  r.metrics = spectralMetrics(r.stats->singularValues, raw.shape[0], raw.shape[1]);
  if (!keepSingularValues) r.stats->singularValues.clear();
  return r;
}

std::vector<TensorReport> reportTensors(const io::TensorFile& file, bool keepSingularValues,
                                        const std::function<void(size_t, size_t)>& progress,
                                        const std::atomic<bool>* cancel) {
  std::vector<TensorReport> out;
  out.reserve(file.tensors.size());
  for (const auto& t : file.tensors) {
    if (cancel && cancel->load()) break;
    out.push_back(reportTensor(t, keepSingularValues));
    if (progress) progress(out.size(), file.tensors.size());
  }
  return out;
}

}  // namespace lwb::inspect
