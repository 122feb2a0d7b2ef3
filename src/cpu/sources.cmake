# Sources of src/cpu: the CPU engines (the reference every GPU kernel is tested against,
# and the fallback where no GPU is present), and the reference triangular solves.
list(APPEND GPUGLU_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/scatter.cpp
  ${CMAKE_CURRENT_LIST_DIR}/level_numeric.cpp
  ${CMAKE_CURRENT_LIST_DIR}/level_gather.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ldlt_numeric.cpp
  ${CMAKE_CURRENT_LIST_DIR}/column_executor.cpp
  ${CMAKE_CURRENT_LIST_DIR}/triangular_solve.cpp
  ${CMAKE_CURRENT_LIST_DIR}/row_ordered_solve.cpp
  ${CMAKE_CURRENT_LIST_DIR}/row_ilu.cpp
  ${CMAKE_CURRENT_LIST_DIR}/refinement.cpp
  ${CMAKE_CURRENT_LIST_DIR}/supernodal_numeric.cpp
  ${CMAKE_CURRENT_LIST_DIR}/supernodal_ldlt.cpp
  ${CMAKE_CURRENT_LIST_DIR}/supernodal_solve.cpp
  ${CMAKE_CURRENT_LIST_DIR}/supernodal_sweep_layout.cpp
  ${CMAKE_CURRENT_LIST_DIR}/supernodal_blas.cpp
  ${CMAKE_CURRENT_LIST_DIR}/supernodal_schur.cpp
  ${CMAKE_CURRENT_LIST_DIR}/cpu_engine.cpp
  ${CMAKE_CURRENT_LIST_DIR}/reference_trsv.cpp
)
