# Dependencies from Debian's packages (scripts/install_deps.sh installs them):
# SuiteSparse (AMD, COLAMD, BTF, KLU, UMFPACK, CHOLMOD), METIS, SuperLU (MC64 via dldperm),
# LAPACK, OpenMP, and PETSc through its pkg-config file.
find_package(PkgConfig REQUIRED)
find_package(OpenMP REQUIRED COMPONENTS CXX)
find_package(Threads REQUIRED)

find_path(SUITESPARSE_INCLUDE_DIR amd.h PATH_SUFFIXES suitesparse REQUIRED)
foreach(lib suitesparseconfig amd colamd btf klu umfpack cholmod cxsparse)
  string(TOUPPER ${lib} LIBU)
  find_library(GPUGLU_${LIBU}_LIBRARY ${lib} REQUIRED)
  add_library(gpuglu_dep::${lib} UNKNOWN IMPORTED)
  set_target_properties(gpuglu_dep::${lib} PROPERTIES
    IMPORTED_LOCATION ${GPUGLU_${LIBU}_LIBRARY}
    INTERFACE_INCLUDE_DIRECTORIES ${SUITESPARSE_INCLUDE_DIR})
endforeach()

find_path(METIS_INCLUDE_DIR metis.h REQUIRED)
find_library(METIS_LIBRARY metis REQUIRED)
add_library(gpuglu_dep::metis UNKNOWN IMPORTED)
set_target_properties(gpuglu_dep::metis PROPERTIES
  IMPORTED_LOCATION ${METIS_LIBRARY} INTERFACE_INCLUDE_DIRECTORIES ${METIS_INCLUDE_DIR})

# LAPACK (Debian's reference or OpenBLAS behind it): the host's dense LU of SplitLU's root
# (src/api/lapack_dense_root.cpp calls dgetrf_/dgetrs_ directly; no LAPACKE is installed).
find_library(GPUGLU_LAPACK_LIBRARY lapack REQUIRED)
add_library(gpuglu_dep::lapack UNKNOWN IMPORTED)
set_target_properties(gpuglu_dep::lapack PROPERTIES IMPORTED_LOCATION ${GPUGLU_LAPACK_LIBRARY})
# BLAS (dgemm_/dtrsm_ of the CPU supernodal LU's wide supernodes, src/cpu/supernodal_blas.cpp):
# Debian's libblas.so.3, OpenBLAS where it is the alternative installed.
find_library(GPUGLU_BLAS_LIBRARY blas REQUIRED)
add_library(gpuglu_dep::blas UNKNOWN IMPORTED)
set_target_properties(gpuglu_dep::blas PROPERTIES IMPORTED_LOCATION ${GPUGLU_BLAS_LIBRARY})

set(GPUGLU_HAVE_PETSC OFF)
pkg_check_modules(PETSC IMPORTED_TARGET petsc)
if(PETSC_FOUND)
  set(GPUGLU_HAVE_PETSC ON)
  pkg_get_variable(PETSC_PREFIX petsc prefix)
  # Complex scalars (PETSC_USE_COMPLEX in petscconf.h): the tests that only a complex build
  # can run (tests/tutorials: ex11) and those that only a real one can (real binary files)
  # are chosen by it.
  set(GPUGLU_PETSC_COMPLEX OFF)
  find_file(GPUGLU_PETSCCONF_H petscconf.h PATHS ${PETSC_INCLUDE_DIRS} NO_DEFAULT_PATH)
  if(GPUGLU_PETSCCONF_H)
    file(STRINGS ${GPUGLU_PETSCCONF_H} complex_line REGEX "^#define PETSC_USE_COMPLEX 1")
    if(complex_line)
      set(GPUGLU_PETSC_COMPLEX ON)
    endif()
  endif()
  message(STATUS "gpuglu: PETSc ${PETSC_VERSION} at ${PETSC_PREFIX} (complex scalars: ${GPUGLU_PETSC_COMPLEX})")
  find_package(MPI REQUIRED COMPONENTS C CXX)
  # A PETSc configured with CUDA: the device-resident tests and benchmark (issue 15) are built.
  set(GPUGLU_PETSC_HAS_CUDA OFF)
  # The peers a PETSc build has (Debian's has all; a PETSc built from source here has MUMPS but
  # not hypre or SuperLU_DIST): the benchmarks' smoke tests run those it has.
  set(GPUGLU_PETSC_HAS_HYPRE OFF)
  set(GPUGLU_PETSC_HAS_SUPERLU_DIST OFF)
  find_file(GPUGLU_PETSCCONF_H petscconf.h PATHS ${PETSC_INCLUDE_DIRS} ${PETSC_PREFIX}/include NO_DEFAULT_PATH)
  if(GPUGLU_PETSCCONF_H)
    file(STRINGS "${GPUGLU_PETSCCONF_H}" petsc_hypre_define REGEX "^#define PETSC_HAVE_HYPRE 1")
    if(petsc_hypre_define)
      set(GPUGLU_PETSC_HAS_HYPRE ON)
    endif()
    file(STRINGS "${GPUGLU_PETSCCONF_H}" petsc_sludist_define REGEX "^#define PETSC_HAVE_SUPERLU_DIST 1")
    if(petsc_sludist_define)
      set(GPUGLU_PETSC_HAS_SUPERLU_DIST ON)
    endif()
    file(STRINGS "${GPUGLU_PETSCCONF_H}" petsc_cuda_define REGEX "^#define PETSC_HAVE_CUDA 1")
    if(petsc_cuda_define)
      set(GPUGLU_PETSC_HAS_CUDA ON)
      message(STATUS "gpuglu: PETSc is configured with CUDA (device-resident Mat/Vec)")
    endif()
  endif()
else()
  message(STATUS "gpuglu: PETSc not found - the plugin, PETSc tests and examples are skipped")
endif()
