# The main job: a PETSc program that solves with -pc_factor_mat_solver_type gpuglu.
if(TARGET petscgpuglu)
  add_executable(gpuglu_solve ${CMAKE_CURRENT_SOURCE_DIR}/gpuglu_solve.cpp ${CMAKE_CURRENT_SOURCE_DIR}/phase_log.cpp)
  target_link_libraries(gpuglu_solve PRIVATE gpuglu::petscgpuglu gpuglu::gpuglu PkgConfig::PETSC MPI::MPI_CXX)
endif()
