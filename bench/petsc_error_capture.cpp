// The capturing PETSc error handler: keeps the message of the initial error (later frames
// of the same error only pass the code on).
#include "petsc_error_capture.hpp"

#include <cstdio>

namespace gpuglu::bench {

namespace {

std::string last_error;

PetscErrorCode capture_error(MPI_Comm, int, const char* fun, const char*, PetscErrorCode n, PetscErrorType p,
                             const char* mess, void*) {
  if (p == PETSC_ERROR_INITIAL) {
    const char* text = nullptr;
    PetscErrorMessage(n, &text, nullptr);
    last_error = std::string(mess && *mess ? mess : (text ? text : "unknown error")) + " [in " + (fun ? fun : "?") + "]";
  }
  return n;
}

}  // namespace

PetscErrorCapture::PetscErrorCapture() {
  last_error.clear();
  pushed_ = PetscPushErrorHandler(capture_error, nullptr) == 0;
}

PetscErrorCapture::~PetscErrorCapture() {
  if (pushed_) PetscPopErrorHandler();
}

const std::string& last_petsc_error() { return last_error; }

std::string sci(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3e", v);
  return buf;
}

}  // namespace gpuglu::bench
