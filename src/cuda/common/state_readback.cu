#include "cuda/common/state_readback.hpp"

#include "cuda/common/cuda_check.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu::cuda {

StateReadback::StateReadback(HostStaging& staging)
    : pinned_(staging.pinned<kernels::FactorState>(1, "the factorization state's staging buffer")) {}

void StateReadback::enqueue(const kernels::FactorState* state, cudaStream_t stream) {
  GPUGLU_CUDA_CHECK(cudaMemcpyAsync(pinned_, state, sizeof(kernels::FactorState), cudaMemcpyDeviceToHost, stream));
}

EngineFactorResult StateReadback::result(const char* missing_fill) const {
  const kernels::FactorState st = *pinned_;
  if (st.missing_fill) throw Error(Status::invalid_input, missing_fill);
  EngineFactorResult out;
  out.max_abs_input = kernels::double_from_bits(st.max_input_bits);
  out.stats.max_active = kernels::double_from_bits(st.max_active_bits);
  // No column measured (n == 0, or a NaN/Inf input): NumericStats' 1, as the CPU engine leaves it.
  out.stats.min_pivot_ratio =
      st.min_ratio_bits == kernels::kPlusInfBits ? 1.0 : kernels::double_from_bits(st.min_ratio_bits);
  out.stats.perturbed_pivots = static_cast<int64_t>(st.perturbed);
  out.stats.first_perturbed = st.first_perturbed == kernels::kNoEntry ? -1 : static_cast<int32_t>(st.first_perturbed);
  if (st.bad_entry != kernels::kNoEntry) {
    out.bad_entry = static_cast<int64_t>(st.bad_entry);
    out.stats.status = Status::nan_or_inf;
  } else if (st.failure_key != kernels::kNoEntry) {
    // The key is (level << 32) | column: the column is its low word.
    out.stats.status = Status::numerically_singular;
    out.stats.pivot_column = static_cast<int32_t>(st.failure_key & 0xffffffffull);
  }
  return out;
}

}  // namespace gpuglu::cuda
