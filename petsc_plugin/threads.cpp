// The default of -mat_gpuglu_threads under PETSc: the rank's share of its node
// (gpuglu::rank_share_of_threads). OpenMP's own default takes every processor in every rank,
// which oversubscribes a node run with one rank per core (16 ranks x 16 threads).
//
// The node is learnt once, when the package is registered: that is the one point every rank
// of PETSC_COMM_WORLD passes through (PetscGPUGLURegister() after PetscInitialize(), or the
// -dll_append load inside it), whereas a factor's symbolic phase runs on one rank (the
// gathered factor's root) or on any subset of them (a sub-solver).
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <vector>

#include "impl.hpp"

namespace gpuglu::petsc {

namespace {

NodeShare node_share;

// The processors of the node as this process may use them: the bits of its affinity mask,
// as many unsigned longs as a cpu_set_t holds (MPI reduces them with MPI_BOR).
constexpr int kMaskWords = static_cast<int>(sizeof(cpu_set_t) / sizeof(unsigned long));

bool read_affinity(std::vector<unsigned long>* mask) {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return false;  // > CPU_SETSIZE processors
  mask->assign(kMaskWords, 0ul);
  std::copy_n(reinterpret_cast<const unsigned long*>(&set), kMaskWords, mask->begin());
  return true;
}

int32_t count_bits(const std::vector<unsigned long>& mask) {
  int32_t n = 0;
  for (unsigned long w : mask) n += __builtin_popcountl(w);
  return n;
}

}  // namespace

PetscErrorCode learn_node_share() {
  MPI_Comm node;
  PetscMPIInt rank, ranks;
  std::vector<unsigned long> mask, node_mask(kMaskWords, 0ul);
  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCallMPI(MPI_Comm_split_type(PETSC_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node));
  PetscCallMPI(MPI_Comm_size(node, &ranks));
  // Every rank of the node takes part in the reduction, even one whose mask is unreadable
  // (it adds nothing); the node's processors are then those all its ranks may run on, which
  // a container's cpuset limits where the online count would name the whole host.
  PetscMPIInt have_mask = read_affinity(&mask) ? 1 : 0, all_have_mask = 0;
  if (!have_mask) mask.assign(kMaskWords, 0ul);
  PetscCallMPI(MPI_Allreduce(mask.data(), node_mask.data(), kMaskWords, MPI_UNSIGNED_LONG, MPI_BOR, node));
  PetscCallMPI(MPI_Allreduce(&have_mask, &all_have_mask, 1, MPI_INT, MPI_MIN, node));
  PetscCallMPI(MPI_Comm_free(&node));

  const long online = sysconf(_SC_NPROCESSORS_ONLN);
  NodeShare s;
  s.ranks_on_node = static_cast<int32_t>(ranks);
  s.process_processors = have_mask ? count_bits(mask) : 0;
  s.node_processors = all_have_mask ? count_bits(node_mask) : static_cast<int32_t>(std::max(online, 0l));
  s.threads = rank_share_of_threads(s.process_processors, s.node_processors, s.ranks_on_node);
  s.known = true;
  node_share = s;
  PetscFunctionReturn(0);
}

PetscErrorCode root_free_processors(MPI_Comm group_node, PetscMPIInt root, int32_t* free_processors) {
  PetscMPIInt rank, ranks;
  std::vector<unsigned long> mask;
  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(group_node, &rank));
  PetscCallMPI(MPI_Comm_size(group_node, &ranks));
  if (!read_affinity(&mask)) mask.assign(kMaskWords, 0ul);  // unreadable: overlaps nothing
  std::vector<unsigned long> all(rank == root ? static_cast<size_t>(ranks) * kMaskWords : 0);
  PetscCallMPI(MPI_Gather(mask.data(), kMaskWords, MPI_UNSIGNED_LONG, all.data(), kMaskWords, MPI_UNSIGNED_LONG, root,
                          group_node));
  *free_processors = 0;
  if (rank != root) PetscFunctionReturn(0);
  const int32_t mine = count_bits(mask);
  int32_t busy = 0;  // waiting ranks that may run where the root may
  for (PetscMPIInt r = 0; r < ranks; ++r) {
    if (r == root) continue;
    bool overlaps = false;
    for (int w = 0; w < kMaskWords; ++w) overlaps = overlaps || (all[static_cast<size_t>(r) * kMaskWords + w] & mask[w]);
    busy += overlaps;
  }
  *free_processors = mine > 0 ? std::max(mine - busy, 1) : 0;
  PetscFunctionReturn(0);
}

void forget_node_share() { node_share = NodeShare(); }

const NodeShare& rank_node_share() { return node_share; }

}  // namespace gpuglu::petsc
