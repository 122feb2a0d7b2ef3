#pragma once
// BasicSparseSolver: what every gpuglu factorization offers, whichever it is (SparseLU in
// lu.hpp, SparseLDLT in ldlt.hpp): the verbs after the analysis, KLU / cuDSS style,
//   factor(A)   numeric, on the chosen backend; repeat with new values (refactorization)
//   solve(b)    / solve_transpose(b) / solve(B) for many right-hand sides
// and the statistics they leave. Only analyze() differs between the factorizations (what
// the input is: a general A, or a symmetric one and the triangle it stores), so it lives
// in the derived classes; code that factors and solves (the PETSc adapter) holds a
// BasicSparseSolver and never asks which one it is. The object owns its schedule, factor
// values and backend buffers (RAII). Scalar: double or std::complex<double>.
#include <complex>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gpuglu/device.hpp"
#include "gpuglu/matrix.hpp"
#include "gpuglu/options.hpp"
#include "gpuglu/schedule.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu {

// Why a factorization left the schedule it started with (PivotPolicy::automatic, repivot).
enum class RecoveryReason : uint8_t {
  none,
  tiny_pivot,      // a static pivot below the threshold, or an Inf/NaN produced by the elimination
  backward_error,  // a solve stayed above Options::backward_error_tolerance after refinement
  growth,          // the factor was suspicious (growth, clamped scales) and the solve that checked it failed
};
const char* to_string(RecoveryReason r) noexcept;

struct FactorStats {
  Status status = Status::not_factored;  // ok, numerically_singular (report policy) or nan_or_inf
  int32_t pivot_column = -1;   // first tiny pivot (column of C, see schedule.hpp), -1 if none
  int32_t pivot_column_original = -1;  // the same column in A's numbering
  double pivot_value = 0.0;    // its value before any perturbation
  int64_t perturbed_pivots = 0;
  // Supernodal LU: supernodes whose rows pivot inside their diagonal blocks, a static pivot
  // having failed in them (Options::lu_supernode_pivoting); kept for the factor's later values.
  int64_t pivoted_supernodes = 0;
  double min_pivot_ratio = 0.0;  // min_j |U(j,j)| / max_i |F(i,j)|
  double growth = 0.0;           // max |F| / max |C| (pivot growth estimate)
  double factor_ms = 0.0;        // last numeric factorization (scatter + factor)
  double device_ms = 0.0;        // of which on the GPU: scatter + level loop (CUDA events; 0 on the CPU)
  int64_t factorizations = 0;    // factor()/refactor() calls since the last analyze() (a re-pivot does not reset it)

  // Options::shift_type (incomplete factorizations): the factorizations this call ran
  // beyond the first (PETSc's "number of shift tries") and the shift of the factor kept.
  int32_t shift_tries = 0;
  double shift_amount = 0.0;

  // PivotPolicy::repivot. A tiny pivot under the schedule this call started with makes it
  // re-analyze A with KLU's partial pivoting (analyze_with_partial_pivoting) and factor the
  // same values again with that order; status and the pivot fields above then describe
  // the second attempt, which is the last: a tiny pivot there is numerically_singular.
  // PivotPolicy::automatic also re-pivots when a solve (or the check of a factor with
  // suspicious growth) stays above the backward-error tolerance, after a fresh static
  // analysis of the values where the schedule was analyzed from other values.
  bool repivoted = false;          // this call replaced the schedule by KLU's (schedule().repivoted)
  bool repivot_singular = false;   // KLU found A singular too: the schedule stays, status numerically_singular
  // The tiny pivot that started the re-analysis or recovery (A's numbering), -1 if none.
  int32_t repivot_column_original = -1;
  double repivot_pivot_value = 0.0;      // its value
  // nnz(L+U) of the schedule this call started with, when it was replaced (after:
  // schedule().nnz_factor()).
  int64_t repivot_nnz_before = 0;
  int64_t repivots = 0;            // schedules replaced by re-pivoting since the last analyze()

  // PivotPolicy::automatic: why the schedule this factor started with was left (none if it
  // was kept), and whether a fresh static analysis (MC64 and ordering of the current values)
  // was part of the recovery; reanalyses counts those since the last analyze().
  RecoveryReason recovery = RecoveryReason::none;
  bool reanalyzed = false;
  int64_t reanalyses = 0;
  // The growth exceeded Options::check_growth (or the schedule's MC64 scales were clamped), so
  // a solve with a known solution checked the factor before it was accepted (its backward
  // error; -1 when no check ran).
  double check_backward_error = -1.0;
  double recovery_growth = 0.0;  // RecoveryReason::growth: the growth of the factor that failed its check

  // SparseLDLT only: its LDL^T could not give a backward error within the tolerance
  // (recovery says why) and gpuglu's LU factored the same matrix instead; the stats above
  // then describe that LU.
  bool lu_fallback = false;
};

struct SolveStats {
  // ok, or numerically_singular: the backward error stayed above
  // Options::backward_error_tolerance after refinement and after every recovery the pivot
  // policy allows (not under perturb). The factor is then marked failed (factored() false,
  // factor_stats().status numerically_singular) and x holds no solution.
  Status status = Status::ok;
  int32_t refine_steps = 0;      // refinement steps taken by the last solve
  double backward_error = -1.0;  // componentwise backward error after refinement (-1: not computed)
  // Arioli, Demmel & Duff's omega1 + omega2 in the factorization's equilibration (-1: not
  // computed): what PivotPolicy::automatic accepts when no pivot order reaches the
  // componentwise tolerance (accepted_normwise).
  double normwise_error = -1.0;
  bool accepted_normwise = false;
  // The backward error is above Options::backward_error_tolerance. Under perturb the solve
  // still returns (the factor is a preconditioner, not a direct solver); under the other
  // policies status says whether a recovery repaired it.
  bool inaccurate = false;
  // PivotPolicy::automatic: this solve replaced a factor that failed the check
  // (factor_stats() describes the new one).
  bool recovered = false;
  double solve_ms = 0.0;
};

// The shared verbs. Constructed only as a SparseLU or SparseLDLT (the constructor is
// protected); each of those builds its own Core, the private state and the steps that
// differ between them (src/api/solver_core.hpp).
template <class Scalar>
class BasicSparseSolver {
 public:
  using value_type = Scalar;
  virtual ~BasicSparseSolver();
  BasicSparseSolver(const BasicSparseSolver&) = delete;
  BasicSparseSolver& operator=(const BasicSparseSolver&) = delete;

  // Numeric factorization with A's values. A must have the analyzed pattern (and storage):
  // Error(pattern_changed) otherwise. Returns the stats; status != ok means no usable factor
  // (solve() then throws not_factored). NaN/Inf values: status nan_or_inf.
  const FactorStats& factor(const CsrView<int32_t, Scalar>& a);
  const FactorStats& factor(const CsrView<int64_t, Scalar>& a);
  // Same, trusting the caller that the pattern is the analyzed one (values in its CSR order).
  const FactorStats& refactor(const Scalar* values);

  // x = A^{-1} b; b and x may alias. n entries each.
  const SolveStats& solve(const Scalar* b, Scalar* x);
  // x = A^{-T} b (a symmetric A: the same solve; a Hermitian one: conj(A^{-1} conj(b))).
  const SolveStats& solve_transpose(const Scalar* b, Scalar* x);
  // Column-major B (n x nrhs, leading dimension ldb) -> X (ldx); may alias when ldb == ldx.
  const SolveStats& solve(int32_t nrhs, const Scalar* b, int64_t ldb, Scalar* x, int64_t ldx);

  // Device-resident data (the CUDA backend with a CUDA PETSc's Mat and Vec arrays): the
  // same refactor() and solves with A's values (CSR order of the analyzed pattern), b and x
  // in device memory of this process (cudaMalloc'd; any device, copied device to device).
  // Nothing goes through the host unless a pivot policy's recovery needs A's values there
  // (then they are downloaded once) or the engine in use reads host arrays only
  // (device_data_direct() false: the CPU backend and the LDL^T; then the data is copied,
  // and these calls still work). The caller's arrays must be complete when called (their
  // streams synchronized); on return nothing of the call is pending. b and x must not
  // overlap. Error(unsupported) in a build without CUDA.
  bool device_data_direct() const noexcept;
  const FactorStats& factor_device(const Scalar* d_values);
  const SolveStats& solve_device(const Scalar* d_b, Scalar* d_x);
  const SolveStats& solve_transpose_device(const Scalar* d_b, Scalar* d_x);

  // --- Schur complements (PETSc's MatFactorSetSchurIS; docs/design.md, "Schur complements") ---
  // The unknowns I = indices (A's numbering) are kept out of the factorization: A11 (the
  // rest, J) is factored and S = A22 - A21 A11^{-1} A12 (k x k, k = |I|) is left for the
  // caller, as MUMPS and cuDSS do it. Takes effect at the next analyze(), which checks the
  // indices (sorted, unique, in [0, n): Error(invalid_input) naming the first that is not);
  // empty: none, an ordinary factorization. With indices, analyze() needs the supernodal
  // engine: SparseLU's supernodal LU (lu_engine auto picks it; column, ILU and
  // PivotPolicy::repivot throw Error(unsupported)), SparseLDLT's supernodal LDL^T (S
  // symmetric; ldlt_engine column and ICC throw Error(unsupported)). The matching, scaling
  // and ordering are A11's, and the pivot policy's recoveries are limited: the LU's to a
  // fresh analysis of new values (the others change the engine or the order of I), the
  // LDL^T's to none (its fallbacks to the column LDL^T and to the LU keep no Schur block:
  // tiny pivots of A11 are perturbed under automatic, reported under report).
  // k == n is allowed: A11 is empty and S = A. solve() and solve_transpose() throw
  // Error(unsupported) then: condense, solve the reduced system, expand. Complex scalars:
  // Error(unsupported) (the supernodal engines are real only).
  void set_schur_indices(std::vector<int32_t> indices);
  const std::vector<int32_t>& schur_indices() const noexcept;  // as set (the next analyze()'s)
  // After a successful factor(): S, column-major k x k with leading dimension ld >= k, rows
  // and columns in the indices' order, in A's numbering and scale (the analysis leaves the
  // Schur unknowns unscaled and matched to themselves, so S is exact up to the rounding of
  // A11's factorization). S is not checked: a singular S is the caller's to judge.
  void schur_complement(Scalar* s, int64_t ld);
  // The same S into device memory d_s (any device of this process: a GPU factor copies it
  // device to device, peer to peer across GPUs), for a caller that goes on on the GPU (the
  // split factorization's root). Error(unsupported) for a factor on the CPU backend.
  void schur_complement_device(Scalar* d_s, int64_t ld);
  // reduced (k entries, the indices' order) = b2 - A21 A11^{-1} b1 for b (n entries, A's
  // numbering); transpose: b2 - A12^T A11^{-T} b1, the reduced right-hand side of A^T x = b.
  // The partial solution A11's sweep leaves is kept for expand(). No iterative refinement
  // here or in expand(): a residual needs the whole x, and x2 comes from a reduced system
  // that belongs to the caller, who judges its accuracy.
  void condense(const Scalar* b, Scalar* reduced, bool transpose = false);
  // x (n entries, A's numbering) = x2 (k entries, the indices' order) at the Schur unknowns
  // and x1 = A11^{-1} (b1 - A12 x2) elsewhere (transpose: A11^{-T} (b1 - A21^T x2)), b being
  // the last condense()'s, which must have had the same transpose and followed the last
  // factor(): Error(invalid_input) otherwise. May be called again with another x2.
  void expand(const Scalar* x2, Scalar* x, bool transpose = false);
  // condense() and expand() on device memory, for a caller that goes on on the GPU (the split
  // factorization's solves): b and x (n entries) on the factor's device, which its kernels
  // read and write; reduced and x2 (k entries) on any device of this process (copied device
  // to device). Synchronous. A factor on the CPU backend: Error(unsupported).
  // expand_device() continues the last condense_device(), once: the engine sweeps its partial
  // solution in place (expand() keeps the host's for another x2). Each refuses to continue the
  // other's condensation, and expand_device() a second time (Error(invalid_input)).
  void condense_device(const Scalar* d_b, Scalar* d_reduced, bool transpose = false);
  void expand_device(const Scalar* d_x2, Scalar* d_x, bool transpose = false);

  // Refinement is a property of the solve, not of the factors: change it between solves
  // (e.g. 0 to time the bare triangular solves) without a new analysis or factorization.
  // steps 0 also turns off the backward-error check, and with it every recovery a solve
  // could make.
  void set_refinement(int32_t steps, double tolerance);

  bool analyzed() const noexcept;
  bool factored() const noexcept;
  const Schedule& schedule() const;  // throws not_analyzed
  const Options& options() const noexcept;
  const FactorStats& factor_stats() const noexcept;
  const SolveStats& solve_stats() const noexcept;
  Backend active_backend() const noexcept;  // the backend that runs factor()/solve()
  // Schedules built by this object (reuse is observable): analyze() calls plus the
  // re-analyses of the pivot policies' recoveries, which replace the schedule.
  int64_t analysis_count() const noexcept;
  // The factor values (CSC, schedule().f_colptr layout; an LDL^T's L with D on its diagonal),
  // for tests and the GPU-vs-reference checks. (With the CUDA backend: downloaded from the
  // device on first use after a factorization.)
  const std::vector<Scalar>& factor_values() const;
  // The device the CUDA backend runs on (usable == false when the CPU backend runs).
  const DeviceInfo& device_info() const noexcept;
  // Why backend automatic stayed on the CPU although a GPU was chosen (e.g. the factor
  // did not fit in device memory); empty otherwise.
  const std::string& backend_note() const noexcept;
  int64_t device_bytes() const noexcept;  // device memory held by the CUDA backend (0 on the CPU)
  // The kernel of the CUDA backend's triangular solves (Options::trsv_kernel resolved;
  // the option as given on the CPU backend, whose solves are sequential).
  TrsvKernel trsv_kernel() const noexcept;

 protected:
  struct Core;
  explicit BasicSparseSolver(std::unique_ptr<Core> core);
  BasicSparseSolver(BasicSparseSolver&&) noexcept;
  BasicSparseSolver& operator=(BasicSparseSolver&&) noexcept;
  // The facade's own Core (its Impl, complete where this is called: src/api).
  template <class Impl>
  Impl& core_as() const {
    return static_cast<Impl&>(*core_);
  }

 private:
  std::unique_ptr<Core> core_;
};

extern template class BasicSparseSolver<double>;
extern template class BasicSparseSolver<std::complex<double>>;

}  // namespace gpuglu
