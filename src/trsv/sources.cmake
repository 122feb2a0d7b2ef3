# Sources of src/trsv: the sparse triangular-solve module's CPU side (triangles, analysis,
# kernel choice, reference solves). Its GPU kernels are in src/cuda (trsv_kernels, cuda_trsv).
list(APPEND GPUGLU_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/triangle.cpp
  ${CMAKE_CURRENT_LIST_DIR}/transpose.cpp
  ${CMAKE_CURRENT_LIST_DIR}/factor_triangles.cpp
  ${CMAKE_CURRENT_LIST_DIR}/trsv_analysis.cpp
  ${CMAKE_CURRENT_LIST_DIR}/kernel_choice.cpp
  ${CMAKE_CURRENT_LIST_DIR}/reference_trsv.cpp
)
