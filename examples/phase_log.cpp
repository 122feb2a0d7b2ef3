#include "phase_log.hpp"

namespace {

// PETSc's event names (src/mat/interface/dlregismat.c; unknown names are skipped, so a PETSc
// that renamed one still runs). MatGetOrdering counts as analysis: PCSetUp_LU/Cholesky compute
// PETSc's ordering outside the symbolic event for the packages that take it (petsc, superlu).
// ILU and ICC have no numeric event of their own: their numeric phases are logged as
// MatLUFactorNumeric and MatCholeskyFactorNumeric. A package whose analysis and factorization
// are one call (a "trivial symbolic" factor: superlu, superlu_dist) logs nothing in the
// symbolic phase and its numeric phase as MatLUFactor / MatCholeskyFactor: all of it is
// factorization, since it runs again at every step. (The same events time the in-place
// factorizations, which would nest the others; this program cannot use them: A must survive
// for the residual.)
constexpr const char* kAnalysisEvents[] = {"MatGetOrdering", "MatGetOrderings", "MatLUFactorSym", "MatILUFactorSym",
                                           "MatCholFctrSym", "MatICCFactorSym"};
constexpr const char* kFactorizationEvents[] = {"MatLUFactorNum", "MatCholFctrNum", "MatLUFactor", "MatCholeskyFctr"};

PetscErrorCode find(const char* const* names, size_t count, std::vector<PetscLogEvent>* events) {
  PetscFunctionBeginUser;
  events->clear();
  for (size_t i = 0; i < count; ++i) {
    PetscLogEvent e = -1;
    PetscCall(PetscLogEventGetId(names[i], &e));
    if (e >= 0) events->push_back(e);  // a PETSc without this event: nothing to count
  }
  PetscFunctionReturn(0);
}

PetscErrorCode seconds_in(const std::vector<PetscLogEvent>& events, double* seconds) {
  PetscFunctionBeginUser;
  *seconds = 0.0;
  for (PetscLogEvent e : events) {
    PetscEventPerfInfo info;
    PetscCall(PetscLogEventGetPerfInfo(PETSC_DETERMINE, e, &info));
    *seconds += static_cast<double>(info.time);
  }
  PetscFunctionReturn(0);
}

}  // namespace

PetscErrorCode PhaseLog::start() {
  PetscFunctionBeginUser;
  PetscCall(PetscLogDefaultBegin());
  PetscCall(find(kAnalysisEvents, sizeof(kAnalysisEvents) / sizeof(*kAnalysisEvents), &analysis_));
  PetscCall(find(kFactorizationEvents, sizeof(kFactorizationEvents) / sizeof(*kFactorizationEvents), &factorization_));
  PetscFunctionReturn(0);
}

PetscErrorCode PhaseLog::read(PhaseSeconds* total) const {
  PetscFunctionBeginUser;
  PetscCall(seconds_in(analysis_, &total->analysis));
  PetscCall(seconds_in(factorization_, &total->factorization));
  PetscFunctionReturn(0);
}
