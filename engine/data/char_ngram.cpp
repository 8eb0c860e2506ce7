#include "data/char_ngram.h"

#include "common/tr_noop.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

namespace lwb::data {
namespace {

// Histories are packed one id per byte, the newest in the low byte: the history of length L
// is the low 8L bits of the longer one, and (history, id) is history << 8 | id.
constexpr uint64_t lowBytes(int count) { return count >= 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * count)) - 1; }

const std::array<CharLevelOrder, 4> kOrders{{
    {1, "unigram", LWB_TR_NOOP("Registry", "unigram")},
    {2, "bigram", LWB_TR_NOOP("Registry", "bigram")},
    {3, "trigram", LWB_TR_NOOP("Registry", "trigram")},
    {5, "5gram", LWB_TR_NOOP("Registry", "5-gram")},
}};

}  // namespace

WittenBellNgrams::WittenBellNgrams(std::span<const uint8_t> train, int vocab, int maxOrder)
    : vocab_(vocab), maxOrder_(maxOrder) {
  if (vocab < 1 || vocab > 256) throw std::invalid_argument("n-gram vocabulary " + std::to_string(vocab) + " must be in [1, 256]");
  if (maxOrder < 1 || maxOrder > kMaxOrder)
    throw std::invalid_argument("n-gram order " + std::to_string(maxOrder) + " must be in [1, " + std::to_string(kMaxOrder) + "]");
  for (const uint8_t id : train)
    if (id >= vocab) throw std::invalid_argument("n-gram training id " + std::to_string(id) + " outside the vocabulary");
  contexts_.resize(static_cast<size_t>(maxOrder));
  counts_.resize(static_cast<size_t>(maxOrder));
  const auto n = static_cast<int64_t>(train.size());
  for (int k = 1; k <= maxOrder; ++k) {
    auto& counts = counts_[static_cast<size_t>(k - 1)];
    counts.reserve(static_cast<size_t>(std::min<int64_t>(n, int64_t{1} << 22)));
    uint64_t history = 0;  // the ids before position i, newest lowest
    const uint64_t mask = lowBytes(k - 1);
    for (int64_t i = 0; i < n; ++i) {
      if (i >= k - 1) ++counts[((history & mask) << 8) | train[static_cast<size_t>(i)]];
      history = (history << 8) | train[static_cast<size_t>(i)];
    }
    auto& contexts = contexts_[static_cast<size_t>(k - 1)];
    for (const auto& [key, c] : counts) {
      Context& h = contexts[key >> 8];
      h.total += c;
      ++h.types;
    }
  }
}

void WittenBellNgrams::probabilities(std::span<const uint8_t> text, int64_t at, double* p) const {
  const uint8_t next = text[static_cast<size_t>(at)];
  const int64_t reach = std::min<int64_t>(maxOrder_ - 1, at);  // ids of history the text has
  uint64_t history = 0;
  for (int64_t i = at - reach; i < at; ++i) history = (history << 8) | text[static_cast<size_t>(i)];
  double lower = 1.0 / vocab_;  // order 0: uniform over the vocabulary
  for (int k = 1; k <= maxOrder_; ++k) {
    if (k <= reach + 1) {
      const uint64_t h = history & lowBytes(k - 1);
      const auto& contexts = contexts_[static_cast<size_t>(k - 1)];
      if (const auto ctx = contexts.find(h); ctx != contexts.end()) {
        const auto& counts = counts_[static_cast<size_t>(k - 1)];
        const auto c = counts.find((h << 8) | next);
        const double seen = c == counts.end() ? 0.0 : static_cast<double>(c->second);
        const auto total = static_cast<double>(ctx->second.total), types = static_cast<double>(ctx->second.types);
        lower = (seen + types * lower) / (total + types);
      }
      // An unseen history: P_k = P_{k−1} (Witten–Bell gives it no mass of its own).
    }
    p[k - 1] = lower;
  }
}

std::vector<double> windowLoss(const WittenBellNgrams& m, std::span<const uint8_t> text, int64_t windows, int64_t seqLen) {
  const auto n = static_cast<int64_t>(text.size());
  if (windows < 1 || seqLen < 1 || windows > n - seqLen)
    throw std::invalid_argument(std::to_string(windows) + " windows of " + std::to_string(seqLen) +
                                " characters do not fit a text of " + std::to_string(n));
  for (const uint8_t id : text)
    if (id >= m.vocab()) throw std::invalid_argument("n-gram scored id " + std::to_string(id) + " outside the vocabulary");
  std::vector<double> sum(static_cast<size_t>(m.maxOrder()), 0.0);
  std::array<double, WittenBellNgrams::kMaxOrder> p{};
  double weights = 0;
  for (int64_t j = 1; j < windows + seqLen; ++j) {
    // Windows i with i + 1 <= j <= i + seqLen, 0 <= i < windows.
    const auto w = static_cast<double>(std::min(windows - 1, j - 1) - std::max<int64_t>(0, j - seqLen) + 1);
    m.probabilities(text, j, p.data());
    for (size_t k = 0; k < sum.size(); ++k) sum[k] -= w * std::log(p[k]);
    weights += w;
  }
  for (double& s : sum) s /= weights;
  return sum;
}

std::span<const CharLevelOrder> charLevelOrders() { return kOrders; }

std::string charLevelLabel(const std::string& key) {
  for (const auto& o : kOrders)
    if (key == o.key) return o.label;
  return key;
}

CharReferenceLevels charReferenceLevels(std::span<const uint8_t> train, std::span<const uint8_t> val, int vocab,
                                        int64_t windows, int64_t seqLen) {
  CharReferenceLevels out;
  const auto nTrain = static_cast<int64_t>(train.size()), nVal = static_cast<int64_t>(val.size());
  if (nTrain > kMaxNgramTrainChars) {
    out.notes.push_back("reference levels omitted: the training split has " + std::to_string(nTrain) +
                        " characters, more than the n-gram fit's limit of " + std::to_string(kMaxNgramTrainChars));
    return out;
  }
  if (nVal < 2) {
    out.notes.push_back("reference levels omitted: the validation split has " + std::to_string(nVal) +
                        " characters; scoring needs at least 2");
    return out;
  }
  int maxOrder = 0;
  for (const auto& o : kOrders) {
    if (o.order <= nTrain) maxOrder = std::max(maxOrder, o.order);
    else
      out.notes.push_back(std::string(o.key) + " reference level omitted: the training split has " + std::to_string(nTrain) +
                          " characters, fewer than its order " + std::to_string(o.order));
  }
  if (maxOrder == 0) return out;
  const WittenBellNgrams model(train, vocab, maxOrder);
  const std::vector<double> full = windowLoss(model, val, nVal - 1, 1);
  std::vector<double> window;
  if (windows > 0) {
    if (windows <= nVal - seqLen) window = windowLoss(model, val, windows, seqLen);
    else out.notes.push_back("window reference levels omitted: " + std::to_string(windows) + " windows of " +
                             std::to_string(seqLen) + " characters do not fit a validation split of " + std::to_string(nVal));
  }
  for (const auto& o : kOrders) {
    if (o.order > maxOrder) continue;
    out.full.push_back({o.label, full[static_cast<size_t>(o.order - 1)], o.key});
    if (!window.empty()) out.window.push_back({o.label, window[static_cast<size_t>(o.order - 1)], o.key});
  }
  return out;
}

}  // namespace lwb::data
