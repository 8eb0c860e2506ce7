#include "optim/constraint_config.h"

namespace lwb::optim {

spectral::ConstraintSettings trainingConstraint(const ConstraintConfig& constraint, const OptimizerConfig& optimizer) {
  spectral::ConstraintSettings s = constraint;
  s.lr = optimizer.lr;
  if (spectral::traits(s.method).lambdaFromOptimizer) s.lambda = optimizer.weightDecay;
  s.updateNorm = optimizer.lr * constraint.updateNormFactor;
  return s;
}

}  // namespace lwb::optim
