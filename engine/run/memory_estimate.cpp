#include "run/memory_estimate.h"

#include "models/model_kinds.h"
#include "optim/optimizer_kinds.h"
#include "io/input_error.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>
#include <string_view>

namespace lwb::run {
namespace {

constexpr double kFloatBytes = 4.0;  // models train in float32

// The model row's sizes: doubles throughout, as hostile in-range sizes (65536² × 256)
// overflow no int64 here, but their products with a batch size could.
models::ModelSize sizeOf(const RunConfig& cfg, double inputDim, double numClasses) {
  models::ModelSize size{inputDim, numClasses, static_cast<double>(cfg.batchSize), 1.0};
  // An ICL example is 2T tokens (x and y of each pair); the token tasks' windows are seq_len.
  if (data::row(cfg.task).input == data::TaskInput::IclSequence) size.tokens = 2 * static_cast<double>(cfg.icl.pairs);
  else if (data::row(cfg.task).input != data::TaskInput::Features) size.tokens = static_cast<double>(cfg.model.seqLen);
  return size;
}

models::WeightShapes modelShape(const RunConfig& cfg, double inputDim, double numClasses) {
  models::WeightShapes s;
  models::row(cfg.model.kind).weights(cfg.model, sizeOf(cfg, inputDim, numClasses), s);
  return s;
}

// Activation elements kept for the backward pass of one batch: every layer's input and
// output, and for attention the score and probability matrices (B·H·N² each).
double activationElements(const RunConfig& cfg, double inputDim, double numClasses) {
  return models::row(cfg.model.kind).activations(cfg.model, sizeOf(cfg, inputDim, numClasses));
}

double optimizerStatePerWeight(optim::OptimizerKind kind) { return optim::row(kind).statePerWeight; }

double readMemAvailable() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  double kb = 0;
  std::string unit;
  while (in >> key >> kb >> unit)
    if (key == "MemAvailable:") return kb * 1024;
  return std::numeric_limits<double>::infinity();
}

double addressSpaceLeft() {
  rlimit rl{};
  if (::getrlimit(RLIMIT_AS, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY) return std::numeric_limits<double>::infinity();
  std::ifstream statm("/proc/self/statm");
  double pages = 0;
  statm >> pages;
  const double mapped = pages * static_cast<double>(::sysconf(_SC_PAGESIZE));
  return std::max(0.0, static_cast<double>(rl.rlim_cur) - mapped);
}

double readNumberFile(const std::string& path) {
  std::ifstream in(path);
  std::string word;
  if (!(in >> word) || word == "max") return std::numeric_limits<double>::infinity();
  char* end = nullptr;
  const double v = std::strtod(word.c_str(), &end);
  return end && *end == '\0' ? v : std::numeric_limits<double>::infinity();
}

double cgroupLeft() {
  // cgroup v2: "0::/some/path" in /proc/self/cgroup.
  std::ifstream in("/proc/self/cgroup");
  std::string line;
  while (std::getline(in, line)) {
    if (!line.starts_with("0::")) continue;
    const std::string dir = "/sys/fs/cgroup" + line.substr(3);
    const double max = readNumberFile(dir + "/memory.max");
    if (!std::isfinite(max)) return max;
    return std::max(0.0, max - readNumberFile(dir + "/memory.current"));
  }
  return std::numeric_limits<double>::infinity();
}

}  // namespace

double estimateParameters(const RunConfig& cfg, int64_t inputDim, int64_t numClasses) {
  return modelShape(cfg, static_cast<double>(inputDim), static_cast<double>(numClasses)).parameters;
}

MemoryEstimate estimateTraining(const RunConfig& cfg, int64_t inputDim, int64_t numClasses) {
  const double in = static_cast<double>(inputDim), classes = static_cast<double>(numClasses);
  const models::WeightShapes s = modelShape(cfg, in, classes);
  const double weights = s.parameters * kFloatBytes;
  const double optimizer = (1 + optimizerStatePerWeight(cfg.optimizer.kind)) * weights;  // gradients + state
  const double workspace = 4 * s.largestMatrix * kFloatBytes;  // Newton–Schulz / SVD temporaries
  const double activations = activationElements(cfg, in, classes) * kFloatBytes;
  MemoryEstimate e;
  e.parameters = s.parameters;
  e.bytes = weights + optimizer + workspace + activations;
  e.breakdown = "weights " + bytesText(weights) + ", gradients and optimizer state " + bytesText(optimizer) +
                ", activations of a batch of " + std::to_string(cfg.batchSize) + " " + bytesText(activations);
  return e;
}

MemoryEstimate estimateInference(const RunConfig& cfg, int64_t inputDim, int64_t numClasses, int64_t batch) {
  RunConfig one = cfg;
  one.batchSize = batch;
  const double in = static_cast<double>(inputDim), classes = static_cast<double>(numClasses);
  const models::WeightShapes s = modelShape(cfg, in, classes);
  const double weights = s.parameters * kFloatBytes;
  // The checkpoint's own tensors are in memory already; building the model copies them once,
  // and PGD/power iteration need gradients of one batch and a few vectors per matrix.
  const double workspace = 4 * s.largestMatrix * kFloatBytes;
  const double activations = activationElements(one, in, classes) * kFloatBytes;
  MemoryEstimate e;
  e.parameters = s.parameters;
  e.bytes = 2 * weights + workspace + activations;
  e.breakdown = "weights " + bytesText(weights) + ", work space " + bytesText(workspace + activations);
  return e;
}

double availableMemoryBytes() { return std::min({readMemAvailable(), addressSpaceLeft(), cgroupLeft()}); }

bool memoryCheckEnabled() {
  const char* v = std::getenv("LWB_MEMORY_CHECK");
  if (!v) return true;
  const std::string_view s(v);
  return !(s == "off" || s == "0" || s == "no" || s == "false");
}

void requireMemory(const MemoryEstimate& e, const std::string& what) {
  if (!memoryCheckEnabled()) return;
  const double available = availableMemoryBytes();
  if (e.bytes <= kMemoryHeadroom * available) return;
  throw InputError(what + ": needs about " + bytesText(e.bytes) + " (" + e.breakdown + ") but about " +
                   bytesText(available) + " is available; make the model or batch smaller, or set " +
                   "LWB_MEMORY_CHECK=off (lipschitz-cli --no-memory-check) to try anyway");
}

std::string bytesText(double bytes) {
  static constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  if (!std::isfinite(bytes)) return "unlimited";
  int u = 0;
  while (bytes >= 1024 && u < 6) bytes /= 1024, ++u;
  char buf[32];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.1f %s", bytes, kUnits[u]);
  return buf;
}

}  // namespace lwb::run
