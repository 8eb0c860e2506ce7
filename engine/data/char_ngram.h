// Interpolated Witten–Bell character n-grams: the reference levels of character tasks
// (issue 25 §2; recursion and base case in docs/DESIGN.md "Character n-gram reference
// levels"). Fitted on the training split, scored on the validation split in nats per
// character. Plain C++ over class ids (no LibTorch, no Qt): the trainer hands it the
// CharsDataset's splits, tests hand it a few dozen characters.
#pragma once

#include "data/reference_level.h"

#include <cstdint>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

namespace lwb::data {

class WittenBellNgrams {
 public:
  static constexpr int kMaxOrder = 7;  // a history of 6 ids and the next id fit one 64-bit key

  // Counts every n-gram of orders 1..maxOrder in `train` (ids < vocab, vocab in [1, 256]).
  // std::invalid_argument for a bad vocab, order or id.
  WittenBellNgrams(std::span<const uint8_t> train, int vocab, int maxOrder);

  // P_k(text[at] | text[at−k+1 .. at−1]) for k = 1..maxOrder into p[0 .. maxOrder): where the
  // text's start cuts the history to j < k−1 ids, P_k = P_{j+1} (the longest order it has).
  void probabilities(std::span<const uint8_t> text, int64_t at, double* p) const;

  int maxOrder() const { return maxOrder_; }
  int vocab() const { return vocab_; }

 private:
  struct Context {
    uint64_t total = 0;  // c(h): n-grams of this order that start with history h
    uint64_t types = 0;  // N1+(h•): distinct ids seen after h
  };
  int vocab_, maxOrder_;
  std::vector<std::unordered_map<uint64_t, Context>> contexts_;  // [k − 1]: history key -> stats
  std::vector<std::unordered_map<uint64_t, uint32_t>> counts_;   // [k − 1]: history key · V + id -> c(h w)
};

// Mean −ln P_k for k = 1..maxOrder (index k − 1) over the targets of `windows` stride-1
// windows of `seqLen` characters from text[0]: window i predicts text[i+1 .. i+seqLen], so a
// character is weighted by the number of windows that predict it, as a model's mean loss
// over those windows weights it. windows = text.size() − 1 with seqLen 1 scores every
// character but the first once. The n-gram's history is not cut at a window's start.
// std::invalid_argument unless windows >= 1, seqLen >= 1 and windows + seqLen <= text.size().
std::vector<double> windowLoss(const WittenBellNgrams& m, std::span<const uint8_t> text, int64_t windows, int64_t seqLen);

// The orders published as reference levels: their summary.json key and plot label. One row
// per level: adding an order here adds it to summary.json, the plot and the docs' list.
struct CharLevelOrder {
  int order;
  const char* key;    // summary.json "reference_levels" member
  const char* label;  // plot label (translated in context "Registry")
};
std::span<const CharLevelOrder> charLevelOrders();
// The label of a summary key; an unknown key (another version's) labels itself.
std::string charLevelLabel(const std::string& key);

// Beyond this many training characters the levels are omitted (hash-map memory and minutes
// of counting); Tiny Shakespeare's split is 1.0 M.
inline constexpr int64_t kMaxNgramTrainChars = int64_t{64} << 20;

struct CharReferenceLevels {
  std::vector<ReferenceLevel> full;    // every validation character but the first
  std::vector<ReferenceLevel> window;  // the targets (and weights) of `windows` stride-1 windows; empty when windows = 0
  std::vector<std::string> notes;      // one line per level omitted, and why
};

// Fits charLevelOrders() on `train` and scores them on `val`. Never throws on short or long
// splits and never yields NaN: a level that cannot be computed is omitted with a note (an
// order needs at least that many training characters; scoring needs >= 2 validation
// characters; windows + seqLen must fit in `val`).
CharReferenceLevels charReferenceLevels(std::span<const uint8_t> train, std::span<const uint8_t> val, int vocab,
                                        int64_t windows, int64_t seqLen);

}  // namespace lwb::data
