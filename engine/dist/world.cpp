#include "dist/world.h"

#include "io/input_error.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <limits>
#include <stdexcept>

namespace lwb::dist {
namespace {

std::optional<std::string> env(const char* name) {
  const char* v = std::getenv(name);
  return v && *v ? std::optional<std::string>(v) : std::nullopt;
}

long parseInt(const std::string& value, const char* name, long lo, long hi) {
  size_t used = 0;
  long v = 0;
  try {
    v = std::stol(value, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != value.size() || v < lo || v > hi)
    throw InputError(std::string(name) + ": expected an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                     "], got '" + value + "'");
  return v;
}

}  // namespace

std::string firstSlurmHost(const std::string& nodeList) {
  const auto bracket = nodeList.find('[');
  const auto comma = nodeList.find(',');
  if (bracket == std::string::npos || (comma != std::string::npos && comma < bracket))
    return nodeList.substr(0, comma);
  // prefix[3-5,7] -> prefix3 (the leading zeros of the first number are kept: node[01-04]).
  const auto end = nodeList.find_first_of(",-]", bracket + 1);
  return nodeList.substr(0, bracket) + nodeList.substr(bracket + 1, end - bracket - 1);
}

int slurmPort(long jobId, long stepId) {
  // Array tasks of a sweep are separate jobs that often share a node: one fixed port (29500)
  // made the second fail ("Address already in use") or, worse, meet the first one's ranks.
  // 15000–29999: below Linux's ephemeral range (32768+), so no outgoing connection holds it.
  return 15000 + static_cast<int>((jobId * 16 + stepId % 16) % 15000);
}

std::optional<World> worldFromEnvironment() {
  World w;
  const auto rank = env("RANK"), size = env("WORLD_SIZE");
  const auto slurmRank = env("SLURM_PROCID"), slurmSize = env("SLURM_NTASKS");
  if (rank || size) {
    if (!rank || !size) throw InputError("RANK and WORLD_SIZE: set both or neither");
    w.size = static_cast<int>(parseInt(*size, "WORLD_SIZE", 1, 4096));
    w.rank = static_cast<int>(parseInt(*rank, "RANK", 0, w.size - 1));
  } else if (slurmRank && slurmSize) {
    w.size = static_cast<int>(parseInt(*slurmSize, "SLURM_NTASKS", 1, 4096));
    w.rank = static_cast<int>(parseInt(*slurmRank, "SLURM_PROCID", 0, w.size - 1));
  } else {
    return std::nullopt;
  }
  if (w.size == 1) return std::nullopt;
  if (const auto addr = env("MASTER_ADDR")) w.masterAddr = *addr;
  else if (const auto nodes = env("SLURM_JOB_NODELIST")) w.masterAddr = firstSlurmHost(*nodes);
  if (const auto port = env("MASTER_PORT")) {
    w.masterPort = static_cast<int>(parseInt(*port, "MASTER_PORT", 1, 65535));
  } else if (const auto job = env("SLURM_JOB_ID"); job && !rank && slurmRank) {
    w.masterPort = slurmPort(parseInt(*job, "SLURM_JOB_ID", 0, std::numeric_limits<long>::max()),
                             env("SLURM_STEP_ID") ? parseInt(*env("SLURM_STEP_ID"), "SLURM_STEP_ID", 0,
                                                             std::numeric_limits<long>::max())
                                                  : 0);
  }
  // Which of this machine's GPUs a CUDA rank takes (torchrun and srun name it; the local
  // launcher's ranks are all on one machine, so their rank is their local rank).
  w.localRank = w.rank;
  if (const auto local = env("LOCAL_RANK")) w.localRank = static_cast<int>(parseInt(*local, "LOCAL_RANK", 0, 4095));
  else if (const auto slurmLocal = env("SLURM_LOCALID")) w.localRank = static_cast<int>(parseInt(*slurmLocal, "SLURM_LOCALID", 0, 4095));
  if (const auto t = env("LWB_DIST_TIMEOUT"))
    w.timeoutSeconds = static_cast<double>(parseInt(*t, "LWB_DIST_TIMEOUT", 1, 86400));
  return w;
}

int freeLocalPort() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) throw std::runtime_error("cannot open a socket to find a free port");
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t len = sizeof addr;
  const bool ok = ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
                  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0;
  ::close(fd);
  if (!ok) throw std::runtime_error("cannot find a free TCP port on 127.0.0.1");
  return ntohs(addr.sin_port);
}

}  // namespace lwb::dist
