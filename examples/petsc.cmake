# PETSc tools of the examples: data conversion for PETSc's own tutorials (ex10).
add_executable(gpuglu_mm_to_petsc ${CMAKE_CURRENT_LIST_DIR}/mm_to_petsc.cpp)
target_link_libraries(gpuglu_mm_to_petsc PRIVATE gpuglu::gpuglu PkgConfig::PETSC MPI::MPI_CXX)
