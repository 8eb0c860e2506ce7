// Per-layer update norms in Modula's units (000 App. F; Large et al. 2024): with
// optimizer.lr_units = modula a matrix's update has RMS->RMS norm lr x target, where target is
// its mass share divided by the sensitivity of everything applied after it. The derivation
// for the Lipschitz transformer and the numbers for a 2-block model are in docs/DESIGN.md
// "Learning rates in Modula's units".
#pragma once

#include "models/model.h"
#include "models/model_kinds.h"

#include <string>
#include <vector>

namespace lwb::optim {

struct ModulaLayout {
  models::ModulaMass mass = models::ModulaMass::None;  // the model row's (None: refused)
  std::string modelName;     // for the message when refused
  int64_t blocks = 0;        // lipschitz_gpt: transformer blocks N (2N residual layers)
  double blocksMass = 32.0;  // the blocks' mass against 1 each for the embedding and the head
  double outputScale = 1.0;  // a final logit scale: a Mul whose sensitivity is its scalar
};

// One target per parameter, in the order given; 0 for parameters Modula does not update by
// norm (gains, biases). Throws InputError for models the rule is not defined for.
std::vector<double> modulaTargets(const std::vector<models::Param>& params, const ModulaLayout& layout);

}  // namespace lwb::optim
