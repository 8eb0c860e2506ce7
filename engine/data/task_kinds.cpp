#include "data/task_kinds.h"

namespace lwb::data {

std::span<const KindInfo> taskKinds() {
  static const std::vector<KindInfo> kinds{
      {"mnist", "MNIST digits", {"data_path", "mnist_train_count"}, "an MNIST IDX folder"},
      {"cifar10", "CIFAR-10 images", {"data_path"}, "a CIFAR-10 binary folder"},
      {"chars", "characters of a text", {"data_path"}, "any text file, next-character prediction"},
      {"modular_addition", "modular addition", {"modulus", "train_fraction"}, "(a + b) mod p, generated"},
      {"modular_multiplication", "modular multiplication", {"modulus", "train_fraction"}, "(a · b) mod p, generated"},
  };
  return kinds;
}

}  // namespace lwb::data
