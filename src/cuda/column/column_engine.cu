#include "cuda/column/column_engine.hpp"

#include <complex>
#include <memory>
#include <string>

#include "cuda/column/column_recipe.hpp"
#include "cuda/common/device_memory.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu::cuda {
namespace {

// The arrays the column recipe reads, consistent with each other; a symmetric schedule (the
// LDL^T's, analyze_symmetric) also carries its sources' columns.
const Schedule& checked_column_schedule(const char* name, const Schedule& s, bool symmetric) {
  if (s.symmetric() != symmetric)
    throw Error(Status::invalid_input,
                std::string(name) + (symmetric ? ": the schedule is not symmetric (analyze_symmetric builds its schedules)"
                                               : ": a symmetric schedule holds L and D only; CudaLDLT factors it"));
  const int32_t levels = s.num_levels();
  if (static_cast<int64_t>(s.value_map.size()) != s.input_nnz || static_cast<int64_t>(s.f_colptr.size()) != s.n + 1 ||
      static_cast<int64_t>(s.f_diag.size()) != s.n || s.nnz_l + s.nnz_u != static_cast<int64_t>(s.f_rowind.size()) ||
      (symmetric && s.target_src_col.size() != s.target_src.size()) ||
      (levels > 0 && static_cast<int64_t>(s.level_target_ptr.size()) != levels + 1))
    throw Error(Status::invalid_input, std::string(name) + ": the schedule's arrays are inconsistent (not from " +
                                           (symmetric ? "analyze_symmetric()?)" : "analyze()?)"));
  return s;
}

}  // namespace

template <class Scalar>
BasicColumnEngine<Scalar>::BasicColumnEngine(const char* name, const Schedule& s, const Options& o, int device_ordinal,
                                             PatternRef pattern, const BasicColumnParts<Scalar>& parts)
    : BasicDeviceEngine<Scalar>(name, checked_column_schedule(name, s, parts.symmetric), o, device_ordinal, pattern) {
  BasicEngineContext<Scalar>& c = this->context();
  DeviceScope scope(c.device);
  column_ = this->set_recipe(std::make_unique<BasicColumnRecipe<Scalar>>(c, s, o, parts));
}

template <class Scalar>
LevelTiming BasicColumnEngine<Scalar>::level_timing() const {
  return column_->timing();
}

template <class Scalar>
bool BasicColumnEngine<Scalar>::uses_graph() const {
  return column_->uses_graph();
}

template <class Scalar>
std::vector<LevelProfile> BasicColumnEngine<Scalar>::profile_levels(const Scalar* a_values, const PivotRule& rule) {
  DeviceScope scope(this->device());
  this->load_input(a_values);
  const std::vector<float> ms = column_->profile_levels(rule);
  std::vector<LevelProfile> out(ms.size());
  for (size_t l = 0; l < ms.size(); ++l) out[l].ms = ms[l];
  return out;
}

template class BasicColumnEngine<double>;
template class BasicColumnEngine<std::complex<double>>;

}  // namespace gpuglu::cuda
