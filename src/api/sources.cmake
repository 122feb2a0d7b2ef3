# Sources of src/api (owned by that stage).
list(APPEND GPUGLU_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/analyzed_pattern.cpp
  ${CMAKE_CURRENT_LIST_DIR}/complex_symmetry.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ilu_shift.cpp
  ${CMAKE_CURRENT_LIST_DIR}/local_rank.cpp
  ${CMAKE_CURRENT_LIST_DIR}/device_placement.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sparse_solver.cpp
  ${CMAKE_CURRENT_LIST_DIR}/solver_core.cpp
  ${CMAKE_CURRENT_LIST_DIR}/solver_device.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sparse_lu.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sparse_lu_device.cpp
  ${CMAKE_CURRENT_LIST_DIR}/recovery.cpp
  ${CMAKE_CURRENT_LIST_DIR}/schur_complement.cpp
  ${CMAKE_CURRENT_LIST_DIR}/split_partition.cpp
  ${CMAKE_CURRENT_LIST_DIR}/split_halves.cpp
  ${CMAKE_CURRENT_LIST_DIR}/dense_root.cpp
  ${CMAKE_CURRENT_LIST_DIR}/lapack_dense_root.cpp
  ${CMAKE_CURRENT_LIST_DIR}/split_lu.cpp
  ${CMAKE_CURRENT_LIST_DIR}/split_solve.cpp
  ${CMAKE_CURRENT_LIST_DIR}/split_vector_maps.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sparse_ldlt.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sparse_ldlt_fallback.cpp
  ${CMAKE_CURRENT_LIST_DIR}/real_form.cpp
  ${CMAKE_CURRENT_LIST_DIR}/real_form_ldlt.cpp
  ${CMAKE_CURRENT_LIST_DIR}/engine_choice.cpp
  ${CMAKE_CURRENT_LIST_DIR}/engine_probe.cpp
)
