#pragma once
// The host side of the supernodal LDL^T engine, computed once per schedule: the schedule
// checked (the kernels index panels without bounds checks) and the launch plan of each level.
// Plain C++, no CUDA.
#include <cstdint>
#include <vector>

#include "gpuglu/schedule.hpp"

namespace gpuglu::cuda {

struct LdltNode {
  int32_t s = 0;
  int32_t ns = 0;
  int64_t nr = 0;
  int64_t l_ptr = 0;
  int64_t chunk = 0;  // Schur complement by GEMM: its columns per GEMM
};

struct LdltPlan {
  struct Level {
    int64_t begin = 0;  // all its supernodes (the solves): level_nodes[begin .. begin + count)
    int32_t count = 0;
    int64_t whole_begin = 0;  // factored whole: whole_nodes[whole_begin ..)
    int32_t whole_count = 0;
    std::vector<LdltNode> blocked;
    int64_t direct_begin = 0;  // complements by one block: direct_nodes[direct_begin ..)
    int32_t direct_count = 0;
    std::vector<LdltNode> gemm;
  };
  std::vector<Level> levels;
  std::vector<int32_t> level_nodes;
  std::vector<int32_t> whole_nodes;
  std::vector<int32_t> direct_nodes;
  std::vector<int64_t> pivot_pos;  // column j -> its pivot's position in the panels
  int64_t blocked_nodes = 0;
  int64_t gemm_nodes = 0;
  int64_t w_doubles = 0;  // L D for the GEMMs (0: none)
  int64_t c_doubles = 0;  // a complement's chunk (0: none)
};

// Throws Error(invalid_input, "CudaSupernodalLDLT: ...") when s is not a consistent supernodal
// LDL^T schedule.
LdltPlan plan_supernodal_ldlt(const Schedule& s);

}  // namespace gpuglu::cuda
