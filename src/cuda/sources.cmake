# Sources of src/cuda, compiled only when nvcc exists (GPUGLU_HAVE_CUDA): engine/ holds what
# every engine reads from its device (per-device facts and kernel attributes), common/ serves
# every engine (errors, device memory, staging, graphs, launches, the gather kernel), lu/ is
# the LU engine (whose factor, level loop and refinement the LDL^T composes too), ldlt/ the
# LDL^T engine's own kernels, solves and composition, trsv/ the triangular-solve module with
# its GPU level analysis, supernodal/ the supernodal LU engine (its panels, kernels and
# cuBLAS updates, its solves on the panels; its solves through F are lu/'s).
set(GPUGLU_CUDA_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/engine/device_facts.cu
  ${CMAKE_CURRENT_LIST_DIR}/common/device.cu
  ${CMAKE_CURRENT_LIST_DIR}/common/device_copy.cu
  ${CMAKE_CURRENT_LIST_DIR}/common/gather_kernels.cu
  ${CMAKE_CURRENT_LIST_DIR}/common/host_staging.cu
  ${CMAKE_CURRENT_LIST_DIR}/engine/device_engine.cu
  ${CMAKE_CURRENT_LIST_DIR}/engine/device_input.cu
  ${CMAKE_CURRENT_LIST_DIR}/engine/device_refinement.cu
  ${CMAKE_CURRENT_LIST_DIR}/engine/refine_kernels.cu
  ${CMAKE_CURRENT_LIST_DIR}/engine/engine_factory.cu
  ${CMAKE_CURRENT_LIST_DIR}/column/column_engine.cu
  ${CMAKE_CURRENT_LIST_DIR}/column/column_recipe.cu
  ${CMAKE_CURRENT_LIST_DIR}/column/device_factor.cu
  ${CMAKE_CURRENT_LIST_DIR}/column/level_loop.cu
  ${CMAKE_CURRENT_LIST_DIR}/lu/cuda_lu.cu
  ${CMAKE_CURRENT_LIST_DIR}/lu/lu_solves.cu
  ${CMAKE_CURRENT_LIST_DIR}/lu/lu_kernels.cu
  ${CMAKE_CURRENT_LIST_DIR}/lu/solve_kernels.cu
  ${CMAKE_CURRENT_LIST_DIR}/ldlt/cuda_ldlt.cu
  ${CMAKE_CURRENT_LIST_DIR}/ldlt/ldlt_kernels.cu
  ${CMAKE_CURRENT_LIST_DIR}/ldlt/ldlt_solves.cu
  ${CMAKE_CURRENT_LIST_DIR}/ldlt/ldlt_solve_kernels.cu
  ${CMAKE_CURRENT_LIST_DIR}/trsv/trsv_kernels.cu
  ${CMAKE_CURRENT_LIST_DIR}/trsv/cuda_trsv.cu
  ${CMAKE_CURRENT_LIST_DIR}/trsv/kahn_kernels.cu
  ${CMAKE_CURRENT_LIST_DIR}/trsv/trsv_levels.cu
  ${CMAKE_CURRENT_LIST_DIR}/trsv/pattern_solver.cu
  ${CMAKE_CURRENT_LIST_DIR}/supernodal/cuda_supernodal_lu.cu
  ${CMAKE_CURRENT_LIST_DIR}/supernodal/dense_panel_lu.cu
  ${CMAKE_CURRENT_LIST_DIR}/supernodal/device_panels.cu
  ${CMAKE_CURRENT_LIST_DIR}/supernodal/panel_solve_kernels.cu
  ${CMAKE_CURRENT_LIST_DIR}/supernodal/panel_sweep_kernels.cu
  ${CMAKE_CURRENT_LIST_DIR}/supernodal/panel_solves.cu
  ${CMAKE_CURRENT_LIST_DIR}/supernodal/schur_gemm.cu
  ${CMAKE_CURRENT_LIST_DIR}/supernodal/supernode_lanes.cu
  ${CMAKE_CURRENT_LIST_DIR}/supernodal/supernodal_kernels.cu
  ${CMAKE_CURRENT_LIST_DIR}/supernodal/resident_panel_kernels.cu
  ${CMAKE_CURRENT_LIST_DIR}/supernodal/supernodal_plan.cpp
)
# Their stand-in in a build without nvcc (src/CMakeLists.txt).
set(GPUGLU_CUDA_ABSENT_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/cuda_absent.cpp
)
