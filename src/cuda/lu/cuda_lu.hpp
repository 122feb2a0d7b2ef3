#pragma once
// CudaLU: the column LU engine (GLU3.0) on the device-engine shell - one Schedule on one
// GPU. Plain C++ (no CUDA types), so the API layer and the tests include it without nvcc.
//
// factor() reproduces reference::factor_levels (the CPU right-looking level executor)
// entry for entry: the same scatter, the same pivot test (core/pivot rule), and every
// F(i, k) receives its updates F(i, k) -= L(i, j) * U(j, k) in ascending source order,
// rounded as the CPU rounds them (no fused multiply-add). The solves run through the
// triangular-solve module (cuda::TriangularSolver with Options::trsv_kernel) with the
// schedule's permutations and scalings applied on the device; the shell refines on the
// device. Scalar: double or std::complex<double>.
#include <complex>
#include <cstdint>
#include <vector>

#include "cuda/column/column_engine.hpp"
#include "gpuglu/options.hpp"
#include "gpuglu/schedule.hpp"

namespace gpuglu::cuda {

template <class Scalar>
class BasicCudaLU final : public BasicColumnEngine<Scalar> {
 public:
  // Uploads the schedule's pattern arrays once, allocates every device buffer, builds the
  // solves' CSR triangles L (unit, strictly lower) and U (with diagonal), and captures the
  // level loop as a CUDA graph (unless o.cuda.level_graph is false, or
  // o.modes.persistent_kernel). Run-time choices come from o. pattern: A's CSR pattern,
  // which refinement needs. device_ordinal < 0: the calling thread's current device. Throws
  // gpuglu::Error (invalid_input for a symmetric or inconsistent schedule, out_of_memory
  // naming the bytes asked, device_error, no_device).
  BasicCudaLU(const Schedule& s, const Options& o, int device_ordinal, PatternRef pattern = {});

  int64_t factor_bytes() const;  // bytes of F values + F pattern (colptr, rowind, diag)
};

using CudaLU = BasicCudaLU<double>;
extern template class BasicCudaLU<double>;
extern template class BasicCudaLU<std::complex<double>>;

}  // namespace gpuglu::cuda
