// The one place where LibTorch 1.13 (Debian) and 2.x (PyTorch wheels) differ for engine/dist.
// 1.13: ProcessGroupGloo derives from c10d::ProcessGroup; 2.x: from c10d::Backend, which a
// ProcessGroup wraps. We hold the Gloo group itself and call its own allreduce / broadcast /
// allgather / barrier, whose signatures are the same in both, so only the name of the base
// differs and nothing here depends on it.
#pragma once

#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>

namespace lwb::dist::compat {

using GlooGroup = c10d::ProcessGroupGloo;

}  // namespace lwb::dist::compat
