// The node-local rank of this process under MPI, read from the launcher's environment so
// that the core library needs no MPI: Open MPI, MPICH/Hydra, Slurm, PMIx.
#include <cstdlib>

#include "gpuglu/device.hpp"

namespace gpuglu {

int32_t local_rank_from_environment() noexcept {
  for (const char* name : {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID", "PMIX_LOCAL_RANK"}) {
    if (const char* v = std::getenv(name)) {
      char* end = nullptr;
      const long r = std::strtol(v, &end, 10);
      if (end != v && *end == '\0' && r >= 0 && r < (1L << 30)) return static_cast<int32_t>(r);
    }
  }
  return 0;
}

}  // namespace gpuglu
