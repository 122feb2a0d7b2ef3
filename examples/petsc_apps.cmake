# PETSc programs of the examples (the main job).
add_executable(gpuglu_solve ${CMAKE_CURRENT_LIST_DIR}/gpuglu_solve.cpp)
target_link_libraries(gpuglu_solve PRIVATE gpuglu::petscgpuglu gpuglu::gpuglu PkgConfig::PETSC MPI::MPI_CXX)
