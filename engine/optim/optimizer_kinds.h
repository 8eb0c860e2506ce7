// The optimizer registry: every optimizer.kind id, its title and the keys it reads. No LibTorch.
#pragma once

#include "common/kind_info.h"

namespace lwb::optim {

std::span<const KindInfo> optimizerKinds();

}  // namespace lwb::optim
