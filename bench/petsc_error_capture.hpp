#pragma once
// PETSc errors as results: a peer failing (a zero pivot, a package refusing a matrix) is
// recorded with PETSc's first message instead of printing a traceback. Used by the PETSc
// benchmarks (petsc_e2e, ilu_gmres_run).
#include <petscsys.h>

#include <string>

namespace gpuglu::bench {

// Installs the capturing handler for its lifetime (PetscPushErrorHandler / Pop) and clears
// the last message. ok() is false when the handler could not be pushed.
class PetscErrorCapture {
 public:
  PetscErrorCapture();
  ~PetscErrorCapture();
  PetscErrorCapture(const PetscErrorCapture&) = delete;
  PetscErrorCapture& operator=(const PetscErrorCapture&) = delete;
  bool ok() const { return pushed_; }

 private:
  bool pushed_ = false;
};

// PETSc's message of the error now being unwound ("message [in function]"), or empty.
const std::string& last_petsc_error();

// v as "%.3e", for failure notes.
std::string sci(double v);

}  // namespace gpuglu::bench
