// The model registry: every model.kind id, its title and the keys it reads. No LibTorch.
#pragma once

#include "common/kind_info.h"

namespace lwb::models {

std::span<const KindInfo> modelKinds();

}  // namespace lwb::models
