#include "ilu_gmres_variants.hpp"

namespace gpuglu::bench {

namespace {

// "base" or "base_<ranks>".
bool is_ranked(const std::string& name, const std::string& base, int ranks) {
  return name == base || name == base + "_" + std::to_string(ranks);
}

void need_one_rank(const std::string& name, int ranks) {
  if (ranks != 1)
    throw std::invalid_argument(name + " runs on one rank (this run has " + std::to_string(ranks) +
                                "): run it without mpiexec");
}

}  // namespace

std::vector<std::string> default_variant_names(int ranks, bool cuda_build) {
  if (ranks > 1) return {"petsc_bjacobi_ilu", "hypre_ilu"};
  std::vector<std::string> v = {"gpuglu", "petsc_ilu", "hypre_ilu"};
  if (cuda_build) v.push_back("cusparse_ilu0");
  return v;
}

Variant make_variant(const std::string& name, int ranks, bool cuda_build, const std::string& backend, int threads) {
  const std::string r = std::to_string(ranks);
  if (name == "gpuglu") {
    need_one_rank(name, ranks);
    std::string o = "-pc_type ilu -pc_factor_levels 0 -pc_factor_mat_solver_type gpuglu -mat_gpuglu_backend " + backend;
    if (threads > 0) o += " -mat_gpuglu_threads " + std::to_string(threads);
    return {name, o};
  }
  if (name == "petsc_ilu") {
    need_one_rank(name, ranks);
    return {name, "-pc_type ilu -pc_factor_levels 0 -pc_factor_mat_solver_type petsc"};
  }
  if (is_ranked(name, "petsc_bjacobi_ilu", ranks))
    return {"petsc_bjacobi_ilu_" + r,
            "-pc_type bjacobi -sub_ksp_type preonly -sub_pc_type ilu -sub_pc_factor_levels 0 "
            "-sub_pc_factor_mat_solver_type petsc"};
  if (is_ranked(name, "hypre_ilu", ranks))
    return {ranks == 1 ? "hypre_ilu" : "hypre_ilu_" + r, "-pc_type hypre -pc_hypre_type euclid -pc_hypre_euclid_level 0"};
  // A rank suffix other than this run's: say so rather than "unknown".
  for (const std::string base : {"petsc_bjacobi_ilu_", "hypre_ilu_"})
    if (name.size() > base.size() && name.rfind(base, 0) == 0 &&
        name.find_first_not_of("0123456789", base.size()) == std::string::npos)
      throw std::invalid_argument(name + " names " + name.substr(base.size()) + " ranks; this run has " + r);
  if (name == "cusparse_ilu0") {
    need_one_rank(name, ranks);
    if (!cuda_build) throw std::invalid_argument("cusparse_ilu0 needs a CUDA build (this one has no nvcc)");
    return {name, "", true};
  }
  throw std::invalid_argument("unknown variant '" + name +
                              "' (gpuglu, petsc_ilu, petsc_bjacobi_ilu[_N], hypre_ilu[_N], cusparse_ilu0)");
}

}  // namespace gpuglu::bench
