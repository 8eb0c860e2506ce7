#include "data/task_kinds.h"

#include "common/tr_noop.h"
namespace lwb::data {

std::span<const KindInfo> taskKinds() {
  static const std::vector<KindInfo> kinds{
      {"mnist", LWB_TR_NOOP("Registry", "MNIST digits"), {"data_path", "mnist_train_count"}, LWB_TR_NOOP("Registry", "an MNIST IDX folder")},
      {"cifar10", LWB_TR_NOOP("Registry", "CIFAR-10 images"), {"data_path"}, LWB_TR_NOOP("Registry", "a CIFAR-10 binary folder")},
      {"chars", LWB_TR_NOOP("Registry", "characters of a text"), {"data_path"}, LWB_TR_NOOP("Registry", "any text file, next-character prediction")},
      {"chars_masked",
       LWB_TR_NOOP("Registry", "masked characters of a text"),
       {"data_path", "mask_rate"},
       LWB_TR_NOOP("Registry", "seed 004 Table 2 analogue: 15 % of positions selected, 80/10/10 [MASK]/random/kept; non-causal")},
      {"modular_addition", LWB_TR_NOOP("Registry", "modular addition"), {"modulus", "train_fraction"}, LWB_TR_NOOP("Registry", "(a + b) mod p, generated")},
      {"modular_multiplication", LWB_TR_NOOP("Registry", "modular multiplication"), {"modulus", "train_fraction"}, LWB_TR_NOOP("Registry", "(a · b) mod p, generated")},
      {"icl_least_squares",
       LWB_TR_NOOP("Registry", "in-context least squares"),
       {"icl.pairs", "icl.dim", "icl.order", "icl.noise", "icl.max_cond", "icl.bias_feature"},
       LWB_TR_NOOP("Registry", "seed 002: predict y = x W in context, a fresh W per sequence; generated")},
  };
  return kinds;
}

}  // namespace lwb::data
