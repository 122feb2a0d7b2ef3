# Sources of src/cuda, compiled only when nvcc exists (GPUGLU_HAVE_CUDA) into the CUDA module
# libgpuglu_cuda (api/cuda_module.hpp), as one shell and
# recipes on it (docs/design.md, "The device-engine shell"): engine/ is the shell (per-device
# facts and kernel attributes, the context of stream, memory, staging and A's values, the
# refinement, the seam's calls written once, the engine factory); common/ is device code
# every recipe shares (errors, memory, staging, graphs, launches, the factorization state,
# scatter and pivot kernels, gather and permutation kernels); column/ is the column recipe
# the column LU (lu/) and LDL^T (ldlt/) share; supernodal/ is the supernodal LU and LDL^T recipes;
# trsv/ is the triangular-solve module with its GPU level analysis and the solves through F.
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
  ${CMAKE_CURRENT_LIST_DIR}/lu/lu_kernels.cu
  ${CMAKE_CURRENT_LIST_DIR}/common/factor_kernels.cu
  ${CMAKE_CURRENT_LIST_DIR}/common/solve_kernels.cu
  ${CMAKE_CURRENT_LIST_DIR}/common/state_readback.cu
  ${CMAKE_CURRENT_LIST_DIR}/trsv/lu_solves.cu
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
  ${CMAKE_CURRENT_LIST_DIR}/split/device_dense_lu.cu
  ${CMAKE_CURRENT_LIST_DIR}/split/cuda_dense_root.cu
  ${CMAKE_CURRENT_LIST_DIR}/split/split_kernels.cu
  ${CMAKE_CURRENT_LIST_DIR}/split/split_device_path.cu
  ${CMAKE_CURRENT_LIST_DIR}/supernodal/pivoted_panel_lu.cu
  ${CMAKE_CURRENT_LIST_DIR}/supernodal/device_panels.cu
  ${CMAKE_CURRENT_LIST_DIR}/supernodal/panel_solve_kernels.cu
  ${CMAKE_CURRENT_LIST_DIR}/supernodal/panel_sweep_kernels.cu
  ${CMAKE_CURRENT_LIST_DIR}/supernodal/panel_solves.cu
  ${CMAKE_CURRENT_LIST_DIR}/supernodal/schur_gemm.cu
  ${CMAKE_CURRENT_LIST_DIR}/supernodal/supernode_lanes.cu
  ${CMAKE_CURRENT_LIST_DIR}/supernodal/supernodal_kernels.cu
  ${CMAKE_CURRENT_LIST_DIR}/supernodal/resident_panel_kernels.cu
  ${CMAKE_CURRENT_LIST_DIR}/supernodal/supernodal_plan.cpp
  ${CMAKE_CURRENT_LIST_DIR}/supernodal/cuda_supernodal_ldlt.cu
  ${CMAKE_CURRENT_LIST_DIR}/supernodal/ldlt_kernels.cu
  ${CMAKE_CURRENT_LIST_DIR}/supernodal/ldlt_plan.cpp
  ${CMAKE_CURRENT_LIST_DIR}/module_entry.cpp
)
# libgpuglu's loader of that module (api/cuda_module.hpp), in its place in libgpuglu.
set(GPUGLU_CUDA_LOADER_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/../api/cuda_module.cpp
)
# Their stand-in in a build without nvcc (src/CMakeLists.txt).
set(GPUGLU_CUDA_ABSENT_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/cuda_absent.cpp
)
