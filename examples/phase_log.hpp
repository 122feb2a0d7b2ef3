#pragma once
// The analysis and numeric-factorization seconds of a solver setup, read from PETSc's own
// log events, so that the main job can split KSPSetUp's wall time the same way for every
// factorization package (gpuglu, petsc, mumps, superlu, ...) and every factor type (LU,
// Cholesky, ILU, ICC): each package runs its analysis inside Mat*FactorSymbolic and its
// numeric factorization inside Mat*FactorNumeric, which PETSc times around the package.
#include <petscsys.h>

#include <vector>

struct PhaseSeconds {
  double analysis = 0.0;       // orderings and symbolic factorizations
  double factorization = 0.0;  // numeric factorizations
};

inline PhaseSeconds operator-(const PhaseSeconds& a, const PhaseSeconds& b) {
  return {a.analysis - b.analysis, a.factorization - b.factorization};
}

class PhaseLog {
 public:
  // Turns PETSc's default logging on (as -log_view does) and finds the events. Call after
  // the objects are created, so that the Mat and KSP packages have registered their events.
  PetscErrorCode start();
  // The seconds spent so far in each phase, in the current logging stage.
  PetscErrorCode read(PhaseSeconds* total) const;

 private:
  std::vector<PetscLogEvent> analysis_;
  std::vector<PetscLogEvent> factorization_;
};
