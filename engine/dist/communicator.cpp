// The Gloo backend of connect(): CPU tensors between processes and machines (issue 28).
#include "dist/dist_compat.h"
#include "dist/group_communicator.h"

#include <unistd.h>

namespace lwb::dist::detail {
namespace {

std::string hostAddress() {
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0) return "127.0.0.1";
  return name;
}

}  // namespace

std::unique_ptr<Communicator> connectGloo(const World& w) {
  const auto started = std::chrono::steady_clock::now();
  try {
    auto store = makeStore(w);
    auto options = compat::GlooGroup::Options::create(timeoutOf(w));
    // Rank 0's address reaches every peer; a loopback master means a one-machine world.
    options->devices.push_back(compat::GlooGroup::createDeviceForHostname(
        w.masterAddr == "127.0.0.1" || w.masterAddr == "localhost" ? "127.0.0.1" : hostAddress()));
    auto group = c10::make_intrusive<compat::GlooGroup>(store, w.rank, w.size, options);
    return std::make_unique<GroupCommunicator<compat::GlooGroup>>(w, store, group, std::nullopt);
  } catch (const std::exception& e) {
    throw joinError(w, started, e);
  }
}

}  // namespace lwb::dist::detail
