# Sources of src/cuda, compiled only when nvcc exists (GPUGLU_HAVE_CUDA).
set(GPUGLU_CUDA_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/device.cu
)
