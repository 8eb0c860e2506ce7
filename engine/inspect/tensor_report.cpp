#include "inspect/tensor_report.h"

#include "io/tensor_convert.h"

#include <ATen/Parallel.h>
#include <ATen/ops/aminmax.h>
#include <ATen/ops/isfinite.h>

#include <algorithm>
#include <cmath>
#include <mutex>
#include <numeric>

namespace lwb::inspect {

namespace {

// Whether every entry is finite, in one pass without a temporary: min and max propagate NaN,
// and an infinity is the max or the min. (at::isfinite(w).all() allocates a bool per entry:
// 38 MB for GPT-2's embedding.)
bool allFinite(const at::Tensor& w) {
  if (w.numel() == 0) return true;
  if (w.scalar_type() == at::kHalf) return at::isfinite(w).all().item<bool>();  // LibTorch 1.13 has no aminmax for Half
  const auto [lo, hi] = at::aminmax(w);
  return std::isfinite(lo.item<double>()) && std::isfinite(hi.item<double>());
}

// A matrix's share of the work: the Gram (k²·len) and the eigensolve (~4.4·k³ at the same
// rate, measured: a 768² dsyevd costs what a 768×3400 dsyrk does). Orders the largest first.
double workOf(const io::RawTensor& t) {
  if (t.shape.size() != 2) return 0.0;
  const double k = static_cast<double>(std::min(t.shape[0], t.shape[1]));
  const double len = static_cast<double>(std::max(t.shape[0], t.shape[1]));
  return k * k * (len + 4.4 * k);
}

}  // namespace

TensorReport reportTensor(const io::RawTensor& raw, bool keepSingularValues) {
  TensorReport r{raw.name, raw.shape, std::string(io::dtypeName(raw.dtype)), std::nullopt, {}, {}};
  if (raw.shape.size() >= 3) {
    // Said, not silently skipped: WeightWatcher users expect conv layers analysed, and how
    // to flatten a kernel into matrices is a modelling choice this tool does not make for them.
    r.note = std::to_string(raw.shape.size()) +
             "-D tensor (e.g. a convolution kernel [out, in, k…]): spectra are computed for 2-D matrices only";
    return r;
  }
  if (raw.shape.size() != 2) return r;
  if (raw.dtype == io::DType::Bool) {
    r.note = "boolean matrix; no spectrum";
    return r;
  }
  const auto w = io::asTensor(raw);  // read-only view into the file buffer (no copy)
  if (io::isFloating(raw.dtype) && !allFinite(w)) {
    r.note = "holds NaN or infinite values; no spectrum";
    return r;
  }
  r.stats = spectral::matrixStats(w);
  if (!std::isfinite(r.stats->sigma1) || !std::isfinite(r.stats->frobenius)) {
    r.stats.reset();  // entries near 1e308: the singular values themselves are past float64
    r.note = "singular values beyond float64's range (above 1.8e308); no spectrum";
    return r;
  }
  r.metrics = spectralMetrics(r.stats->singularValues, raw.shape[0], raw.shape[1]);
  if (!keepSingularValues) r.stats->singularValues.clear();
  return r;
}

std::vector<TensorReport> reportTensors(const io::TensorFile& file, bool keepSingularValues,
                                        const std::function<void(size_t, size_t)>& progress,
                                        const std::atomic<bool>* cancel) {
  // The matrices are independent, and most of each one's time is a symmetric eigensolve that
  // BLAS barely parallelises (a 768² dsyevd took 3× longer on 2 threads than on 1 under load):
  // so the intra-op threads each take whole matrices, largest first, and BLAS runs
  // single-threaded inside the parallel region (OpenBLAS and ATen both see it).
  const size_t total = file.tensors.size();
  std::vector<size_t> order(total);
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return workOf(file.tensors[a]) > workOf(file.tensors[b]); });
  std::vector<std::optional<TensorReport>> slots(total);
  std::atomic<size_t> next{0};
  std::mutex progressMutex;
  size_t done = 0;
  const int64_t workers = std::max<int64_t>(1, std::min<int64_t>(at::get_num_threads(), static_cast<int64_t>(total)));
  at::parallel_for(0, workers, 1, [&](int64_t, int64_t) {
    for (size_t i; (i = next.fetch_add(1)) < total;) {
      if (cancel && cancel->load()) return;
      slots[order[i]] = reportTensor(file.tensors[order[i]], keepSingularValues);
      std::lock_guard<std::mutex> lock(progressMutex);  // callers' callbacks need not be thread-safe
      ++done;
      if (progress) progress(done, total);
    }
  });
  std::vector<TensorReport> out;
  out.reserve(total);
  for (auto& r : slots)
    if (r) out.push_back(std::move(*r));
  return out;
}

}  // namespace lwb::inspect
