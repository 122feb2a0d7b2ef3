#pragma once
// The preconditioners the ILU(0)-GMRES benchmark compares, each as the PETSc options that
// select it (so a variant can be reproduced by pasting its options into any PETSc program):
//   gpuglu                 -pc_type ilu -pc_factor_levels 0 -pc_factor_mat_solver_type gpuglu
//                          -mat_gpuglu_backend B                                  (one rank)
//   petsc_ilu              PETSc's own ILU(0) (-pc_factor_mat_solver_type petsc)  (one rank)
//   petsc_bjacobi_ilu_<N>  -pc_type bjacobi -sub_pc_type ilu on N ranks (named by the ranks
//                          it ran on, so a 2-rank local run is not taken for the 16-rank one)
//   hypre_ilu              hypre's Euclid ILU(0) (-pc_type hypre -pc_hypre_type euclid
//                          -pc_hypre_euclid_level 0; Debian's PETSc 3.18 has no hypre ILU
//                          type); on N > 1 ranks it is named hypre_ilu_<N>
//   cusparse_ilu0          cusparseDcsrilu02 + cusparseSpSV as a PCSHELL (pc_cusparse_ilu0.hpp;
//                          CUDA builds, one rank)
#include <stdexcept>
#include <string>
#include <vector>

namespace gpuglu::bench {

struct Variant {
  std::string name;        // as recorded (petsc_bjacobi_ilu_16, hypre_ilu, ...)
  std::string pc_options;  // PETSc options choosing the preconditioner (no prefix)
  bool cusparse_shell = false;  // the PC is set in code (PCSHELL), not by options
};

// gpuglu,petsc_ilu,hypre_ilu(,cusparse_ilu0 in a CUDA build) on one rank;
// petsc_bjacobi_ilu,hypre_ilu on more.
std::vector<std::string> default_variant_names(int ranks, bool cuda_build);

// name: one of the names above; petsc_bjacobi_ilu and hypre_ilu may carry the rank
// suffix or not (it must then equal ranks). backend: cpu|cuda|auto; threads > 0 sets
// -mat_gpuglu_threads. Throws std::invalid_argument for unknown names, a variant that
// needs one rank under more, or cusparse_ilu0 in a build without CUDA.
Variant make_variant(const std::string& name, int ranks, bool cuda_build, const std::string& backend, int threads);

}  // namespace gpuglu::bench
