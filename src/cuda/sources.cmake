# Sources of src/cuda, compiled only when nvcc exists (GPUGLU_HAVE_CUDA).
set(GPUGLU_CUDA_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/device.cu
  ${CMAKE_CURRENT_LIST_DIR}/cuda_lu.cu
  ${CMAKE_CURRENT_LIST_DIR}/lu_kernels.cu
  ${CMAKE_CURRENT_LIST_DIR}/solve_kernels.cu
  ${CMAKE_CURRENT_LIST_DIR}/refine_kernels.cu
  ${CMAKE_CURRENT_LIST_DIR}/trsv_kernels.cu
  ${CMAKE_CURRENT_LIST_DIR}/cuda_trsv.cu
  ${CMAKE_CURRENT_LIST_DIR}/kahn_kernels.cu
  ${CMAKE_CURRENT_LIST_DIR}/trsv_levels.cu
)
# Their stand-ins in a build without nvcc (src/CMakeLists.txt).
set(GPUGLU_CUDA_ABSENT_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/device_absent.cpp
  ${CMAKE_CURRENT_LIST_DIR}/trsv_levels_absent.cpp
)
