// gpuglu::Status -> PETSc error classes, and the catch-all boundary that keeps C++
// exceptions out of PETSc's C call stack.
#include <exception>
#include <new>

#include "impl.hpp"

namespace gpuglu::petsc {

PetscErrorCode petsc_error_code(Status status) noexcept {
  switch (status) {
    case Status::ok: return PETSC_ERR_LIB;  // an exception with status ok is a core bug
    case Status::invalid_input: return PETSC_ERR_ARG_OUTOFRANGE;
    case Status::not_square: return PETSC_ERR_ARG_SIZ;
    case Status::structurally_singular: return PETSC_ERR_MAT_LU_ZRPVT;
    case Status::numerically_singular: return PETSC_ERR_MAT_LU_ZRPVT;
    case Status::nan_or_inf: return PETSC_ERR_FP;
    case Status::empty_row: return PETSC_ERR_MAT_LU_ZRPVT;
    case Status::index_overflow: return PETSC_ERR_ARG_OUTOFRANGE;
    case Status::out_of_memory: return PETSC_ERR_MEM;
    case Status::no_device: return PETSC_ERR_GPU_RESOURCE;
    case Status::device_error: return PETSC_ERR_GPU;
    case Status::pattern_changed: return PETSC_ERR_ARG_INCOMP;
    case Status::not_analyzed: return PETSC_ERR_ARG_WRONGSTATE;
    case Status::not_factored: return PETSC_ERR_ARG_WRONGSTATE;
    case Status::io_error: return PETSC_ERR_FILE_READ;
    case Status::unsupported: return PETSC_ERR_SUP;
  }
  return PETSC_ERR_LIB;
}

PetscErrorCode raise_current_exception(MPI_Comm comm, const char* operation) noexcept {
  // PetscError() records the message and returns the code; the caller's PetscCall()
  // adds its own frame to the traceback.
  try {
    throw;
  } catch (const Error& e) {
    return PetscError(comm, __LINE__, operation, __FILE__, petsc_error_code(e.status()), PETSC_ERROR_INITIAL,
                      "gpuglu: %s", e.what());
  } catch (const std::bad_alloc&) {
    return PetscError(comm, __LINE__, operation, __FILE__, PETSC_ERR_MEM, PETSC_ERROR_INITIAL,
                      "gpuglu: out of host memory");
  } catch (const std::exception& e) {
    return PetscError(comm, __LINE__, operation, __FILE__, PETSC_ERR_LIB, PETSC_ERROR_INITIAL, "gpuglu: %s", e.what());
  } catch (...) {
    return PetscError(comm, __LINE__, operation, __FILE__, PETSC_ERR_LIB, PETSC_ERROR_INITIAL,
                      "gpuglu: unknown exception");
  }
}

}  // namespace gpuglu::petsc
