// A labelled loss level that plots draw as a horizontal line (the ICL task's closed forms,
// the character tasks' n-gram models). No LibTorch.
#pragma once

#include <string>

namespace lwb::data {

struct ReferenceLevel {
  std::string label;  // English; the app translates it in context "Registry"
  double value = 0;
  std::string key;    // summary.json's name for it ("bigram"); empty for levels derived from the config
};

}  // namespace lwb::data
