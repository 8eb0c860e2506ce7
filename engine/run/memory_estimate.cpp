#include "run/memory_estimate.h"

#include "attention/attention_kinds.h"
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

struct Shape {
  double parameters = 0;
  double largestMatrix = 0;  // elements of the biggest weight matrix (constraint work space)
  void matrix(double rows, double cols) {
    parameters += rows * cols;
    largestMatrix = std::max(largestMatrix, rows * cols);
  }
};

// Doubles throughout: hostile in-range sizes (65536² × 256) overflow no int64 here, but
// their products with a batch size could.
Shape modelShape(const RunConfig& cfg, double inputDim, double numClasses) {
  const auto& m = cfg.model;
  Shape s;
  const double d = static_cast<double>(m.dModel);
  if (m.kind == "mlp") {
    double in = inputDim;
    for (const int64_t w : m.widths) {
      s.matrix(static_cast<double>(w), in);
      in = static_cast<double>(w);
    }
    s.matrix(numClasses, in);
  } else if (m.kind == "modular_mlp") {
    const double e = static_cast<double>(m.embedDim), w = static_cast<double>(m.width);
    s.matrix(numClasses, e);
    s.matrix(w, 2 * e);
    s.matrix(numClasses, w);
  } else if (m.kind == "lipschitz_gpt") {
    const double dm = static_cast<double>(m.mlpRatio) * d;
    s.matrix(numClasses, d);  // embedding
    for (int64_t b = 0; b < m.blocks; ++b) {
      // q, k, v, o; position scores have no q, k but a bias per head and offset.
      for (int k = 0; k < (m.attentionScores == "position" ? 2 : 4); ++k) s.matrix(d, d);
      if (m.attentionScores != "content") s.parameters += static_cast<double>(m.heads * m.seqLen);
      s.matrix(dm, d);
      s.matrix(d, dm);
      if (m.standard) s.parameters += 2 * d;  // two LayerNorm gains
    }
    if (m.standard) s.parameters += d;
    s.matrix(numClasses, d);  // head
  } else if (m.kind == "icl_transformer") {
    const bool gains = m.gainCap > 0;
    s.matrix(d, inputDim);
    for (int64_t l = 0; l < m.layers; ++l) {
      s.matrix(3 * d, d);
      s.matrix(d, d);
      s.matrix(4 * d, d);
      s.matrix(d, 2 * d);
      s.parameters += 1 + (gains ? 9 * d : 0);  // Swish β; gains of qkv, out, fc1, fc2
    }
    s.matrix(numClasses, d);
  } else if (m.kind == "attlip") {
    const double hidden = static_cast<double>(m.mlpRatio) * d;
    s.matrix(numClasses, d);
    s.matrix(static_cast<double>(m.seqLen), d);
    int projections = 0;  // an unknown kind is the config check's to report
    for (const auto& k : attention::attentionKinds())
      if (k.id == m.attention) projections = k.projections;
    for (int k = 0; k < projections; ++k) s.matrix(d, d);  // [H, d, d/H] each: d² elements
    s.matrix(hidden, d);
    s.matrix(d, hidden);
    s.matrix(numClasses, d);
  }
  return s;
}

// Activation elements kept for the backward pass of one batch: every layer's input and
// output, and for attention the score and probability matrices (B·H·N² each).
double activationElements(const RunConfig& cfg, double inputDim, double numClasses) {
  const auto& m = cfg.model;
  const double b = static_cast<double>(cfg.batchSize), d = static_cast<double>(m.dModel);
  const double heads = static_cast<double>(m.heads);
  if (m.kind == "mlp") {
    double widths = 0;
    for (const int64_t w : m.widths) widths += static_cast<double>(w);
    return b * (inputDim + 3 * widths + 3 * numClasses);
  }
  if (m.kind == "modular_mlp")
    return b * (4 * static_cast<double>(m.embedDim) + 3 * static_cast<double>(m.width) + 3 * numClasses);
  if (m.kind == "lipschitz_gpt") {
    const double n = static_cast<double>(m.seqLen), blocks = static_cast<double>(m.blocks);
    return b * n * d * blocks * (12 + 3 * static_cast<double>(m.mlpRatio)) + b * heads * n * n * blocks * 3 +
           b * n * numClasses * 3;
  }
  if (m.kind == "icl_transformer") {
    const double n = 2 * static_cast<double>(cfg.icl.pairs), layers = static_cast<double>(m.layers);
    return b * n * d * layers * 24 + b * heads * n * n * layers * 3 + b * n * numClasses * 3;
  }
  if (m.kind == "attlip") {
    const double n = static_cast<double>(m.seqLen), k = static_cast<double>(m.proxSteps);
    return b * n * d * (8 + 3 * static_cast<double>(m.mlpRatio) + 4 * k) + b * heads * n * n * (2 + k) +
           b * n * numClasses * 3;
  }
  return 0;
}

// Optimizer state per weight: AdamW's two moments, Muon's and SGD's momentum, Manifold Muon's
// momentum plus the AdamW moments of its embeddings and head (counted for all: an upper bound).
double optimizerStatePerWeight(const std::string& kind) {
  if (kind == "muon" || kind == "sgd") return 1;
  if (kind == "adamw") return 2;
  return 3;
}

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
  const Shape s = modelShape(cfg, in, classes);
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
  const Shape s = modelShape(cfg, in, classes);
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
