// connectGloo() for a build configured with LWB_WITH_GLOO=OFF: the LibTorch it was built against
// ships no gloo headers (the PyTorch 2.x wheels used on GPU machines), so there is no CPU
// collective backend. Every other part of engine/dist still builds; a data-parallel run on the
// CPU stops at its start with this message instead of failing to compile the whole engine.
#include "dist/communicator.h"

#include <stdexcept>
#include <string>

namespace lwb::dist::detail {

std::unique_ptr<Communicator> connectGloo(const World& world) {
  throw std::runtime_error("rank " + std::to_string(world.rank) + " of " + std::to_string(world.size) +
                           ": this build has no Gloo (configured with LWB_WITH_GLOO=OFF because its LibTorch "
                           "ships no gloo headers), so it cannot run data-parallel training on the CPU; use a build "
                           "against Debian's LibTorch (./packaging/build.sh) for --nproc > 1");
}

}  // namespace lwb::dist::detail
