// The node-local rank (and count of ranks) of this process under MPI, read from the
// launcher's environment so that the core library needs no MPI: Open MPI, MPICH/Hydra,
// Slurm, PMIx.
#include <cstdlib>
#include <cstring>
#include <initializer_list>

#include "gpuglu/device.hpp"

namespace gpuglu {

namespace {

// The first of names that holds an integer in [lowest, 2^30), or -1.
int32_t first_integer(std::initializer_list<const char*> names, long lowest) {
  for (const char* name : names) {
    if (const char* v = std::getenv(name)) {
      char* end = nullptr;
      const long r = std::strtol(v, &end, 10);
      if (end != v && *end == '\0' && r >= lowest && r < (1L << 30)) return static_cast<int32_t>(r);
    }
  }
  return -1;
}

}  // namespace

int32_t local_rank_from_environment() noexcept {
  const int32_t r =
      first_integer({"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID", "PMIX_LOCAL_RANK"}, 0);
  return r < 0 ? 0 : r;
}

// Slurm's count per node is SLURM_TASKS_PER_NODE's "2(x3),1" list, not one number: a job of
// one count per node ("4" or "4(x2)") reads as that number; any other shape as unknown.
int32_t local_size_from_environment() noexcept {
  const int32_t size = first_integer({"OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS", "PMIX_LOCAL_SIZE"}, 1);
  if (size > 0) return size;
  if (const char* v = std::getenv("SLURM_TASKS_PER_NODE")) {
    char* end = nullptr;
    const long r = std::strtol(v, &end, 10);
    if (end != v && r >= 1 && r < (1L << 30) && (*end == '\0' || (*end == '(' && !std::strchr(end, ','))))
      return static_cast<int32_t>(r);
  }
  return 0;
}

int32_t ranks_per_device_from_environment() noexcept { return first_integer({"GPUGLU_RANKS_PER_DEVICE"}, 1); }

}  // namespace gpuglu
