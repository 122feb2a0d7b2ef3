#pragma once
// The seam between SparseLU and the numeric engines (docs/design.md, "One seam"): an
// engine executes one Schedule on one device - the CPU reference engine (src/cpu),
// the CUDA engine (src/cuda) - and knows nothing of pivot policies, recoveries or PETSc.
// SparseLU holds one engine, builds a new one when the schedule changes, and decides
// everything above the arithmetic. Only core types cross the seam.
#include <cstdint>
#include <memory>
#include <vector>

#include "core/numeric_types.hpp"
#include "core/scalar.hpp"
#include "gpuglu/options.hpp"
#include "gpuglu/profile.hpp"
#include "gpuglu/schedule.hpp"
#include "gpuglu/trsv_kernel.hpp"

namespace gpuglu {

struct EngineFactorResult {
  NumericStats stats;          // ok / numerically_singular, or nan_or_inf (see bad_entry)
  int64_t bad_entry = -1;      // first input entry (A's CSR order) that is NaN or Inf, -1 if none
  double max_abs_input = 0.0;  // max |C(i, j)| of the scattered input (the growth's denominator)
  double device_ms = 0.0;      // the part timed on a device (scatter + level loop), 0 on the CPU
};

struct EngineSolveResult {
  int32_t refine_steps = 0;      // corrections accepted
  double backward_error = -1.0;  // componentwise, of the returned x; -1 when max_steps was 0
  double normwise_error = -1.0;  // core/backward_error.hpp's omega1 + omega2 of the returned x; -1 likewise
};

// A's CSR pattern as analyzed (64-bit row pointers), for the refinement's residuals. It
// outlives the engine: SparseLU owns it and rebuilds the engine when it changes.
struct PatternRef {
  int32_t n = 0;
  const int64_t* rowptr = nullptr;
  const int32_t* colind = nullptr;
};

// Scalar: double, or std::complex<double> (docs/design.md, "Complex scalars"; the supernodal
// engines are real only). The engines' statistics are real either way (magnitudes).
template <class Scalar>
class BasicNumericEngine {
 public:
  using value_type = Scalar;
  virtual ~BasicNumericEngine() = default;

  // Numeric factorization of A's values (a_values: the analyzed pattern's CSR order):
  // scatter into F, add rule.diagonal_shift to C's diagonal, eliminate by the schedule. A
  // failure is a status in the result, never an exception (those are for the device or
  // memory failing). The same call refactors: only the values change.
  virtual EngineFactorResult factor(const Scalar* a_values, const PivotRule& rule) = 0;

  // x = A^{-1} b (transpose: A^{-T} b) with the last successful factor, then up to
  // max_steps steps of iterative refinement against A's values of that factor(), while the
  // componentwise backward error exceeds tolerance and each step lowers it. b and x are
  // host arrays of n that must not overlap.
  virtual EngineSolveResult solve(const Scalar* b, Scalar* x, bool transpose, int32_t max_steps,
                                  const RefineTarget& target) = 0;

  // F = (L - I) + U of the last factorization (schedule().f_rowind's layout); a device
  // engine copies it to the host on the first call after a factorization.
  virtual const std::vector<Scalar>& factor_values() = 0;

  // The signs of D of the last successful LDL^T, for engines whose D is not F's diagonal
  // (the supernodal LDL^T's 2 x 2 pivots): true and out set; false for every other engine,
  // whose D (if any) is read from factor_values().
  virtual bool pivot_signs(PivotSigns& out) {
    (void)out;
    return false;
  }

  // Schur-complement mode (Schedule::schur_size = k > 0; docs/design.md, "Schur complements"):
  // factor() eliminates C's first n - k unknowns and leaves the trailing k x k block holding
  // S_C = C22 - C21 C11^{-1} C12, which it never factors (no pivot test there: S is the
  // caller's), and solve() is not defined. Everything here is in C's numbering (the schedule's
  // permuted, scaled matrix); SparseLU applies the permutations and scalings around it, so
  // an engine needs none of A's numbering. Host arrays; the defaults throw Error(unsupported)
  // and an engine that overrides them says so in supports_schur(), which SparseLU asks before
  // it gives the engine a Schur schedule.
  virtual bool supports_schur() const noexcept { return false; }
  // S_C after the last successful factor(): column-major k x k, leading dimension ld >= k.
  virtual void schur_block(Scalar* s, int64_t ld);
  // The same into device memory (any device of the process); false where the engine's panels
  // are not on a device (the CPU's), so the caller takes schur_block's host copy instead.
  virtual bool schur_block_device(Scalar* d_s, int64_t ld) {
    (void)d_s;
    (void)ld;
    return false;
  }
  // The sweeps that stop at the Schur block, in place on z (n entries; C's numbering, as
  // solve_permuted's work vector). Forward: z = C's right-hand side on entry; on return its
  // first n - k entries hold L11^{-1} z1 and its last k the reduced right-hand side
  // z2 - C21 C11^{-1} z1 (transpose: U11^{-T} z1 and z2 - C12^T C11^{-T} z1, for C^T).
  // Backward: z as the forward sweep left it, its last k entries replaced by the caller's
  // solution x2 of the reduced system; on return the first n - k entries hold
  // x1 = C11^{-1} (z1 - C12 x2) (transpose: C11^{-T} (z1 - C21^T x2)), the last k untouched.
  virtual void schur_forward(Scalar* z, bool transpose);
  virtual void schur_backward(Scalar* z, bool transpose);
  // The same sweeps on device vectors (b and x on the engine's device; reduced and x2 on any
  // device of the process), with the permutations and
  // scalings around them, for a Schur schedule whose Schur unknowns sit unscaled at C's last
  // k places (the analysis puts them there): condense takes b (n entries, A's numbering)
  // and leaves the reduced right-hand side's k entries in d_reduced; expand takes x2 (k
  // entries), finishes the sweep condense began (nothing else may run in between) and
  // writes x (n entries, A's numbering). Synchronous. False where the engine's panels are
  // not on a device (the CPU's): the caller then uses the host sweeps.
  virtual bool schur_condense_device(const Scalar* d_b, Scalar* d_reduced, bool transpose) {
    (void)d_b;
    (void)d_reduced;
    (void)transpose;
    return false;
  }
  virtual bool schur_expand_device(const Scalar* d_x2, Scalar* d_x, bool transpose) {
    (void)d_x2;
    (void)d_x;
    (void)transpose;
    return false;
  }

  virtual Backend backend() const noexcept = 0;
  virtual int64_t device_bytes() const noexcept = 0;  // 0 on the CPU
  virtual TrsvKernel trsv_kernel() const noexcept = 0;  // the kernel the solves run (the option on the CPU)

  // Device-resident data (a CUDA PETSc's MATSEQAIJCUSPARSE values, VECSEQCUDA vectors):
  // factor() and solve() with A's values, b and x in device memory of this process (any
  // device: they are copied device to device, never through the host). The caller's arrays
  // must be complete when called (their producers synchronized); on return nothing of the
  // call is pending. Only engines that say so take them; SparseLU brings device data to
  // the host for the others. The defaults throw Error(unsupported).
  virtual bool supports_device_pointers() const noexcept { return false; }
  virtual EngineFactorResult factor_device(const Scalar* d_values, const PivotRule& rule);
  virtual EngineSolveResult solve_device(const Scalar* d_b, Scalar* d_x, bool transpose, int32_t max_steps,
                                         const RefineTarget& target);
  // A's values of the last factor_device() (input_nnz of them) to the host: what a pivot
  // policy's recovery needs (the re-analyses and KLU read them on the CPU).
  virtual void download_input(Scalar* a_values);

  // Where one factorization's time goes (gpuglu/profile.hpp's EngineProbe): A's values
  // factored with an event after every level (part), one entry per level; F holds the factor
  // afterwards but the solves are not updated (factor() before solve()). Engines that launch
  // by levels say so; the default throws Error(unsupported).
  virtual std::vector<LevelProfile> profile_levels(const Scalar* a_values, const PivotRule& rule);
};

using NumericEngine = BasicNumericEngine<double>;

// Copies between the host and device memory of this process (cudaMemcpyDefault), for the
// rare paths where device-resident data meets an engine of host arrays (a recovery that
// built a CPU engine). n doubles; synchronous. Without CUDA they throw Error(unsupported).
void copy_device_to_host(const double* d_src, double* h_dst, int64_t n);
void copy_host_to_device(const double* h_src, double* d_dst, int64_t n);

// The CPU reference engine (src/cpu/cpu_engine.cpp): OpenMP over the columns of a
// level, left-looking gather or (Options::cpu_right_looking) the GPU's right-looking updates.
// Scalar: double or std::complex<double>. hermitian (complex, symmetric schedules only): the
// schedule is factored A = L D L^H instead of L D L^T (ldlt_numeric.hpp).
template <class Scalar = double>
std::unique_ptr<BasicNumericEngine<Scalar>> make_cpu_engine(const Schedule& s, PatternRef pattern, const Options& o,
                                                            bool hermitian = false);

// A Hermitian LDL^H stores each off-diagonal pair (i, j), (j, i) of A once, in L: the entry
// that lands in C's upper triangle (row before column after the symmetric permutation) is
// conjugated by the scatter. One flag per entry of A's full pattern; both LDL^H engines
// take them from here. Throws Error(invalid_input) without a pattern of s.n rows.
std::vector<char> hermitian_mirrored_entries(const Schedule& s, PatternRef pattern);

// The CUDA engine on device `device_ordinal`: CudaLU (src/cuda/lu/cuda_lu.cu), CudaLDLT
// (src/cuda/ldlt/cuda_ldlt.cu) for a symmetric schedule, or CudaSupernodalLU for a
// supernodal one (double only); in a build without CUDA a stand-in
// (src/cuda/cuda_absent.cpp) throws Error(unsupported). Throws Error(out_of_memory) naming
// the bytes asked when the factor does not fit. hermitian: as make_cpu_engine's.
template <class Scalar = double>
std::unique_ptr<BasicNumericEngine<Scalar>> make_cuda_engine(const Schedule& s, PatternRef pattern, const Options& o,
                                                             int device_ordinal, bool hermitian = false);

}  // namespace gpuglu
