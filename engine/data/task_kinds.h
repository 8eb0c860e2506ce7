// The task registry: every task id the run config accepts, its title and the keys it reads.
// No LibTorch (forms and the config parser list tasks from here).
#pragma once

#include "common/kind_info.h"

namespace lwb::data {

std::span<const KindInfo> taskKinds();

}  // namespace lwb::data
