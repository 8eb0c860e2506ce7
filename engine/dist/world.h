// Who this process is in a data-parallel run (issue 28): rank, world size and where rank 0's
// rendezvous store listens. From the generic variables (RANK, WORLD_SIZE, MASTER_ADDR,
// MASTER_PORT; torchrun's names) or, when those are absent, from Slurm's (SLURM_PROCID,
// SLURM_NTASKS, SLURM_JOB_NODELIST). No LibTorch.
#pragma once

#include <optional>
#include <string>

namespace lwb::dist {

struct World {
  int rank = 0, size = 1;
  int localRank = 0;  // among the ranks of this machine: LOCAL_RANK, SLURM_LOCALID, else rank
  std::string masterAddr = "127.0.0.1";
  int masterPort = 29500;
  double timeoutSeconds = 60;  // every collective and the rendezvous (LWB_DIST_TIMEOUT)
};

// The world this process was started into, or nullopt when it runs alone (no RANK and no
// SLURM_PROCID, or a world of one). Throws InputError naming the variable for bad values.
std::optional<World> worldFromEnvironment();

// The first host of a Slurm node list: "node1", "node[3-5,7]" -> "node3", "a,b" -> "a".
std::string firstSlurmHost(const std::string& nodeList);

// The rendezvous port of ranks started by srun with no MASTER_PORT: one per job and step
// (SLURM_JOB_ID, SLURM_STEP_ID), in 15000–29999.
int slurmPort(long jobId, long stepId);

// A TCP port that was free on 127.0.0.1 a moment ago (bind to port 0, read it back, close).
int freeLocalPort();

}  // namespace lwb::dist
