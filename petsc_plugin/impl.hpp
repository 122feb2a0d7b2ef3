#pragma once
// Private state of a gpuglu factor Mat (F->data) and the functions the adapter's
// files share. The adapter translates, delegates and reports (DESIGN.md, "PETSc
// adapter"); the numerics live in gpuglu::SparseLU and gpuglu::SparseLDLT (solver.hpp).
#include <petsc/private/matimpl.h>

#include <complex>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "gpuglu/ldlt.hpp"
#include "gpuglu/lu.hpp"
#include "gpuglu/options.hpp"
#include "gpuglu/split_lu.hpp"
#include "gpuglu/status.hpp"
#include "petscgpuglu.h"
#include "solver.hpp"

#if !defined(PETSC_USE_REAL_DOUBLE)
#error "gpuglu supports PETSc builds with double precision scalars (real or complex)"
#endif
// A complex PETSc's PetscScalar is std::complex<double> in C++ (petscsystypes.h), which the
// core's complex engines take as it is: no copy, no cast (docs/user_guide.md).
#if defined(PETSC_USE_COMPLEX)
static_assert(std::is_same_v<PetscScalar, std::complex<double>>, "gpuglu factors complex double matrices");
#else
static_assert(std::is_same_v<PetscScalar, double>, "gpuglu factors real double matrices");
#endif

// Device-resident data (device_data.cpp): with a CUDA PETSc, MATSEQAIJCUSPARSE values and
// VECSEQCUDA vectors go to the CUDA engine as device pointers. Written against PETSc 3.26's
// API (MatSeqAIJCUSPARSEGetArrayRead, VecCUDAGetArrayRead/Write, PetscDeviceContext), for real
// and complex PetscScalar alike (the CUDA column LU/ILU engines take both).
#if defined(PETSC_HAVE_CUDA) && PETSC_VERSION_GE(3, 20, 0)
#define GPUGLU_PETSC_DEVICE_DATA 1
#endif
static_assert(sizeof(PetscInt) == 4 || sizeof(PetscInt) == 8, "PetscInt is 32 or 64 bits");

namespace gpuglu::petsc {

using Solver = BasicSolver<PetscScalar>;

// CSR index type matching PetscInt, so the Mat's arrays are viewed without a copy.
using Index = std::conditional_t<sizeof(PetscInt) == 4, int32_t, int64_t>;

struct LogEvents {
  PetscLogEvent analysis = 0;
  PetscLogEvent numeric = 0;
  PetscLogEvent solve = 0;
};
extern LogEvents log_events;  // registered once by PetscGPUGLURegister()

// threads.cpp: the node this rank shares, learnt once by PetscGPUGLURegister() (collective on
// PETSC_COMM_WORLD), and the default of -mat_gpuglu_threads it gives.
struct NodeShare {
  bool known = false;
  int32_t ranks_on_node = 0;       // ranks of PETSC_COMM_WORLD on this node (MPI_COMM_TYPE_SHARED)
  int32_t node_processors = 0;     // processors the node's ranks may run on together
  int32_t process_processors = 0;  // processors this process may run on (sched_getaffinity)
  int32_t threads = 0;             // rank_share_of_threads() of the three
};
PetscErrorCode learn_node_share();
// Collective on group_node (a gathered factor's group's ranks on one node): on its root, the
// processors the root may run on less one for each other rank that may run on them too (they
// wait for the root in MPI, each busy on one processor); 0 where unknown and on the others.
PetscErrorCode root_free_processors(MPI_Comm group_node, PetscMPIInt root, int32_t* free_processors);
void forget_node_share();
const NodeShare& rank_node_share();

// -mat_gpuglu_devices: the devices one LU factor runs on. Its one definition (name, range,
// default, -help text), read by options.cpp with the other -mat_gpuglu_* options and written
// in docs/options.md. 1: gpuglu::SparseLU; 2: gpuglu::SplitLU over two devices
// (split_factor.cpp). The default is 1: the split pays only on large factors, and its first
// analysis (a vertex separator, two block analyses) costs more than one SparseLU's.
struct DevicesOption {
  static constexpr const char* name = "-mat_gpuglu_devices";
  static constexpr PetscInt one = 1;    // the default
  static constexpr PetscInt split = 2;  // the most: SplitLU splits over two
  static constexpr const char* help =
      "LU: devices one factor runs on: 1 (SparseLU) or 2 (SplitLU, split by nested dissection's top separator; "
      "real LU only)";
};

// A factor split over two devices (-mat_gpuglu_devices 2, split_factor.cpp).
struct SplitFactor {
  std::unique_ptr<SplitLU> lu;  // null: the factor is not split (devices 1, or the fallback)
  // Whose share of the node's devices the split takes (devices_of_rank(count, index, sharers)),
  // counted only when a split asks; sharers 0: this process's (the launcher's local rank and
  // size). A gathered factor's group root sets its index among the node's group roots.
  int32_t share_index = 0, sharers = 0;
  // Why this factor runs on one device although the split was asked for (its analysis found
  // a half structurally singular): said by -info and -ksp_view; empty otherwise.
  std::string fallback;
  // A's pattern with 32-bit indices where PetscInt has 64 bits (SplitLU reads int32_t).
  std::vector<int32_t> rowptr32, colind32;
  int64_t solves = 0;  // vector solves (a MatMatSolve's columns each count)
};

struct Factor {
  // Options of the next analysis: defaults <- MatFactorInfo <- -mat_gpuglu_* (options.cpp).
  Options options;
  bool use_petsc_ordering = false;  // -mat_gpuglu_ordering petsc
  bool threads_defaulted = false;   // no -mat_gpuglu_threads: options.num_threads is the node share
  // A gathered factor's root: the other ranks of its group on its node, which wait for it and
  // lend it their processors, and its processors they leave free (root_share_of_threads); 0
  // elsewhere.
  int32_t waiting_ranks = 0, free_processors = 0;
  // The device where -mat_gpuglu_device is not given (-1: node-local rank mod device count). A
  // gathered factor's group root sets it so that the roots of one node use different GPUs.
  int32_t default_device = -1;
  std::vector<int32_t> given_perm;  // PETSc's column ordering (new -> old) for Ordering::given
  Solver solver;  // LU / ILU: SparseLU; Cholesky / ICC: SparseLDLT

  // The Mat the analysis saw: refactorization is valid while its nonzero state holds.
  PetscObjectId matrix_id = 0;
  PetscObjectState nonzerostate = -1;
  PetscInt nnz_a = 0;
  double fill_given = 0.0;   // MatFactorInfo::fill (-pc_factor_fill): reported, not needed for memory
  bool analysis_ok = false;  // false after a structurally singular matrix (MatFactorError set)
  // The last numeric factorization ran with -ksp_error_if_not_converged (A's or F's
  // erroriffailure): a solve that fails the factor then raises an error too.
  bool error_if_failure = false;

  int64_t analyses = 0;  // analyses run on this factor Mat (shown by MatView)
  // Recoveries from failed static pivots (pivot policies auto and repivot), in factorizations
  // and in solves: schedules replaced by KLU's partial pivoting, and fresh static analyses.
  int64_t repivots = 0;
  int64_t reanalyses = 0;
  int64_t lu_fallbacks = 0;  // Cholesky: factorizations the LDL^T handed to gpuglu's LU
  RecoveryReason last_recovery = RecoveryReason::none;
  int64_t inaccurate_solves = 0;  // perturb policy: solves left above the backward-error tolerance
  // Device-resident data (MatView shows them): numeric factorizations and vector solves, and
  // how many of them took their values / vectors from device memory.
  int64_t numerics = 0, device_numerics = 0;
  int64_t vec_solves = 0, device_vec_solves = 0;

  // MatFactorSetSchurIS (schur.cpp): the IS's indices (sorted, unique), given to the LU (the
  // LDL^T for a Cholesky factor) at every symbolic phase; F->schur receives S after every
  // numeric one.
  std::vector<int32_t> schur_indices;

  // -mat_gpuglu_devices (DevicesOption): 2 splits an LU over two devices (split_factor.cpp).
  PetscInt devices = DevicesOption::one;
  SplitFactor split;
};

inline Factor* factor_of(Mat F) { return static_cast<Factor*>(F->data); }

// A failure of the matrix raises an error instead of a MatFactorError (-ksp_error_if_not_converged).
inline bool error_if_failure(Mat F, Mat A) { return A->erroriffailure || F->erroriffailure; }

// A's CSR arrays, borrowed from the SeqAIJ storage (no copy); restore() gives them back.
struct BorrowedCsr {
  Mat mat = nullptr;
  PetscBool sbaij = PETSC_FALSE;  // MATSEQSBAIJ: the upper triangle
  PetscInt nrows = 0;
  PetscInt ncols = 0;
  const PetscInt* rowptr = nullptr;
  const PetscInt* colind = nullptr;
  const PetscScalar* values = nullptr;

  PetscErrorCode borrow(Mat a);
  PetscErrorCode restore();
  CsrView<Index, PetscScalar> view() const {
    return {static_cast<Index>(nrows), static_cast<Index>(ncols), reinterpret_cast<const Index*>(rowptr),
            reinterpret_cast<const Index*>(colind), values};
  }
};

// factor_mat.cpp: the factor Mat of every type (LU, ILU for SeqAIJ; Cholesky, ICC for SeqAIJ
// and SeqSBAIJ with block size 1).
PetscErrorCode MatGetFactor_GPUGLU(Mat A, MatFactorType ftype, Mat* F);
// factor_gathered.cpp: the factor of a parallel matrix (MPIAIJ: LU, Cholesky; MPISBAIJ:
// Cholesky), gathered to rank 0 and factored there by the sequential factor Mat; ILU and ICC
// of a parallel matrix are an error that names the alternatives.
PetscErrorCode MatGetFactor_GPUGLU_Gathered(Mat A, MatFactorType ftype, Mat* F);
// factor_lu.cpp, factor_cholesky.cpp: the symbolic phases of each type.
PetscErrorCode MatLUFactorSymbolic_GPUGLU(Mat F, Mat A, IS row, IS col, const MatFactorInfo* info);
PetscErrorCode MatILUFactorSymbolic_GPUGLU(Mat F, Mat A, IS row, IS col, const MatFactorInfo* info);
PetscErrorCode MatCholeskyFactorSymbolic_GPUGLU(Mat F, Mat A, IS perm, const MatFactorInfo* info);
PetscErrorCode MatICCFactorSymbolic_GPUGLU(Mat F, Mat A, IS perm, const MatFactorInfo* info);
PetscErrorCode MatGetInertia_GPUGLU(Mat F, PetscInt* nneg, PetscInt* nzero, PetscInt* npos);
// device_data.cpp: the device arrays of A's values and of b and x where the device-resident
// path applies (a CUDA PETSc, a SeqAIJCUSPARSE A / SeqCUDA vectors whose valid copy is on the
// device, an engine that reads device arrays), else null: the host path. PETSc's device
// context is synchronized after the arrays are taken, so that they are complete when the
// engine (on its own stream) reads them; the engine returns with nothing pending.
PetscErrorCode get_device_values(Mat F, Mat A, const PetscScalar** d_values);
PetscErrorCode restore_device_values(Mat A, const PetscScalar** d_values);
PetscErrorCode get_device_vectors(Mat F, Vec b, Vec x, const PetscScalar** d_b, PetscScalar** d_x);
PetscErrorCode restore_device_vectors(Vec b, Vec x, const PetscScalar** d_b, PetscScalar** d_x);
// factor.cpp: what every type shares. analyze(): the solver's analysis of A's current
// pattern (a failure is a MatFactorError); take_ordering(): PETSc's ordering into
// given_perm under -mat_gpuglu_ordering petsc; factor_numeric(): the numeric phase.
PetscErrorCode analyze(Mat F, Mat A);
PetscErrorCode take_ordering(Mat F, Mat A, IS col, Factor* f);
PetscErrorCode factor_numeric(Mat F, Mat A);
// options.cpp: fills factor->options (and the ordering source) for the next analysis.
PetscErrorCode set_options(Mat F, Mat A, const MatFactorInfo* info, Factor* factor);
// solve.cpp
// MatMatSolve's operands as column-major arrays: X must be MATSEQDENSE (PETSc requires it), a
// sparse B is converted to dense first (PETSc allows AIJ right-hand sides). get() takes the
// arrays; restore() gives them back and destroys a converted B.
struct DenseSolveOperands {
  Mat B = nullptr, X = nullptr, Bd = nullptr;
  const PetscScalar* b = nullptr;
  PetscScalar* x = nullptr;
  PetscInt ldb = 0, ldx = 0, nrhs = 0;
  PetscErrorCode get(Mat B, Mat X);
  PetscErrorCode restore();
};
// Every entry of x, or of the dense X, Inf: what a failed solve leaves, as PETSc's MatSolve does.
PetscErrorCode set_inf(Vec x);
PetscErrorCode set_inf(Mat X);
PetscErrorCode MatSolve_GPUGLU(Mat F, Vec b, Vec x);
PetscErrorCode MatSolveTranspose_GPUGLU(Mat F, Vec b, Vec x);
PetscErrorCode MatMatSolve_GPUGLU(Mat F, Mat B, Mat X);
PetscErrorCode MatMatSolveTranspose_GPUGLU(Mat F, Mat B, Mat X);
// schur.cpp: PETSc's Schur-complement interface (MatFactorSetSchurIS_C, composed on every
// factor type: ILU and ICC refuse it) on the core's Schur mode. schur_active(): an IS of at
// least one index was set. schur_symbolic(): the LU (LDL^T for a Cholesky factor) with the
// indices; schur_numeric(): the numeric phase and S into F->schur; the solves condense,
// solve with S through PETSc's MatFactorSolveSchurComplement(Transpose), and expand.
PetscErrorCode MatFactorSetSchurIS_GPUGLU(Mat F, IS is);
PetscErrorCode MatFactorSetSchurIS_GPUGLU_Gathered(Mat F, IS is);
bool schur_active(const Factor* f);
PetscErrorCode schur_symbolic(Mat F, Mat A, Factor* f);
PetscErrorCode schur_numeric(Mat F, Mat A);
PetscErrorCode schur_vec_solve(Mat F, Vec b, Vec x, bool transpose);
PetscErrorCode schur_mat_solve(Mat F, Mat B, Mat X, bool transpose);
PetscErrorCode schur_view(Mat F, PetscViewer viewer);
PetscErrorCode schur_destroy(Mat F);
// split_factor.cpp: -mat_gpuglu_devices 2, an LU factor split over two devices by SplitLU.
// split_active(): the factor's last symbolic phase took the split (and did not fall back).
// refuse_split(): the symbolic phases that cannot split (ILU, ICC) refuse devices 2.
// split_symbolic(): SplitLU::analyze (an LU, or for a Cholesky factor an LDL^T split of an AIJ
// A), falling back to the one-device SparseLU (SparseLDLT) where a half is structurally
// singular; split_numeric(): SplitLU::factor, its failure a MatFactorError;
// the solves through the host (CUDA vectors are read and written there); split_view() the
// -ksp_view lines of a split factor, or of the fallback.
bool split_active(const Factor* f);
PetscErrorCode refuse_split(Mat F, const Factor* f);
PetscErrorCode split_symbolic(Mat F, Mat A);
// The one-device Cholesky factor's solver (SparseLDLT) for A as factor_cholesky.cpp reads it
// (the split's fallback).
PetscErrorCode make_cholesky_solver(Mat F, Mat A);
PetscErrorCode split_numeric(Mat F, Mat A);
PetscErrorCode split_vec_solve(Mat F, Vec b, Vec x, bool transpose);
PetscErrorCode split_mat_solve(Mat F, Mat B, Mat X, bool transpose);
PetscErrorCode split_view(Mat F, PetscViewer viewer);
PetscErrorCode split_info(Mat F, MatInfo* info);

// view.cpp
PetscErrorCode MatView_GPUGLU(Mat F, PetscViewer viewer);
PetscErrorCode MatGetInfo_GPUGLU(Mat F, MatInfoType flag, MatInfo* info);

// factor.cpp: what a factorization (or a solve's recovery) did, through -info, and the
// MatFactorError of a failed one (PETSc's conventions: KSP/SNES can recover).
// A failure of the matrix, not of gpuglu: a MatFactorError (KSP: DIVERGED_PC_FAILED), or with
// -ksp_error_if_not_converged an error of class `code`. Numeric failures (tiny pivot, NaN/Inf,
// no accurate pivot order) are MAT_FACTOR_NUMERIC_ZEROPIVOT because PETSc's PCSetUp_LU retries
// the numeric factorization with the next values only after that type; any other type sticks
// to the factor until the pattern changes, which would end a Newton loop at its first bad step.
PetscErrorCode set_factor_error(Mat F, bool error_if_failure, MatFactorError type, PetscErrorCode code, PetscReal value,
                                PetscInt row, const char* why);
PetscErrorCode report_recovery(Mat F, const FactorStats& stats, const char* where);
PetscErrorCode report_factor_stats(Mat F, Mat A, const FactorStats& stats);
// Flops of the numeric factorization or of solves, on -log_view's CPU or GPU counter.
PetscErrorCode log_flops(const Factor* f, double flops);

// errors.cpp
// The PETSc error class of a gpuglu status.
PetscErrorCode petsc_error_code(Status status) noexcept;
// Call only inside a catch handler: raises the PETSc error (message "gpuglu: <what()>")
// that the exception in flight stands for, attributed to `operation`.
PetscErrorCode raise_current_exception(MPI_Comm comm, const char* operation) noexcept;

// Runs fn (core calls only, no PETSc calls) and turns any exception into a PETSc error:
// exceptions never cross into PETSc's C frames.
template <class Fn>
PetscErrorCode guarded(MPI_Comm comm, const char* operation, Fn&& fn) noexcept {
  try {
    fn();
    return 0;
  } catch (...) {
    return raise_current_exception(comm, operation);
  }
}

// What every analysis shares (factor.cpp's analyze, split_factor.cpp's split_analyze): A's
// CSR borrowed, the factor's record of A taken (its id, nonzero state and nnz), fn(csr) run
// under the analysis event. A structural failure (structurally singular, an empty row) or
// NaN/Inf values are no PETSc error here: *failure gets the message, *structural says which
// of the two, and f->analysis_ok stays false; any other exception is a PETSc error naming who.
template <class Fn>
PetscErrorCode analyze_borrowed(Mat F, Mat A, const char* who, Fn&& fn, bool* structural, std::string* failure) {
  Factor* f = factor_of(F);
  BorrowedCsr csr;
  PetscErrorCode ierr = 0;

  PetscFunctionBegin;
  *structural = false;
  failure->clear();
  PetscCall(csr.borrow(A));
  PetscCall(PetscObjectGetId((PetscObject)A, &f->matrix_id));
  f->nonzerostate = A->nonzerostate;
  f->nnz_a = csr.rowptr[csr.nrows];
  f->analysis_ok = false;
  PetscCall(PetscLogEventBegin(log_events.analysis, A, 0, 0, 0));
  try {
    fn(csr);
    f->analysis_ok = true;
  } catch (const Error& e) {
    *structural = e.status() == Status::structurally_singular || e.status() == Status::empty_row;
    if (*structural || e.status() == Status::nan_or_inf)
      *failure = e.what();
    else
      ierr = raise_current_exception(PETSC_COMM_SELF, who);
  } catch (...) {
    ierr = raise_current_exception(PETSC_COMM_SELF, who);
  }
  PetscCall(PetscLogEventEnd(log_events.analysis, A, 0, 0, 0));
  PetscCall(csr.restore());
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

}  // namespace gpuglu::petsc
