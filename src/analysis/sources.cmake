# Sources of src/analysis: the CPU analysis, once per sparsity pattern.
list(APPEND GPUGLU_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/input_pattern.cpp
  ${CMAKE_CURRENT_LIST_DIR}/max_product_matching.cpp
  ${CMAKE_CURRENT_LIST_DIR}/dual_centering.cpp
  ${CMAKE_CURRENT_LIST_DIR}/matching.cpp
  ${CMAKE_CURRENT_LIST_DIR}/symmetric_graph.cpp
  ${CMAKE_CURRENT_LIST_DIR}/metis_random.cpp
  ${CMAKE_CURRENT_LIST_DIR}/graph_compression.cpp
  ${CMAKE_CURRENT_LIST_DIR}/nested_dissection.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ordering_cache.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ordering.cpp
  ${CMAKE_CURRENT_LIST_DIR}/partial_pivoting.cpp
  ${CMAKE_CURRENT_LIST_DIR}/symbolic.cpp
  ${CMAKE_CURRENT_LIST_DIR}/supernodal_symbolic.cpp
  ${CMAKE_CURRENT_LIST_DIR}/supernodal_factor.cpp
  ${CMAKE_CURRENT_LIST_DIR}/supernodal_value_map.cpp
  ${CMAKE_CURRENT_LIST_DIR}/supernode_targets.cpp
  ${CMAKE_CURRENT_LIST_DIR}/schur_ordering.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ilu_pattern.cpp
  ${CMAKE_CURRENT_LIST_DIR}/row_ilu.cpp
  ${CMAKE_CURRENT_LIST_DIR}/factor_rows.cpp
  ${CMAKE_CURRENT_LIST_DIR}/value_map.cpp
  ${CMAKE_CURRENT_LIST_DIR}/levels.cpp
  ${CMAKE_CURRENT_LIST_DIR}/update_lists.cpp
  ${CMAKE_CURRENT_LIST_DIR}/analyze.cpp
  ${CMAKE_CURRENT_LIST_DIR}/symmetric_input.cpp
  ${CMAKE_CURRENT_LIST_DIR}/symmetric_symbolic.cpp
  ${CMAKE_CURRENT_LIST_DIR}/symmetric_pairs.cpp
  ${CMAKE_CURRENT_LIST_DIR}/analyze_symmetric.cpp
  # the triangular-solve module's CPU side: triangles of a factor, their level analysis,
  # the solve kernel's choice (its GPU kernels are in src/cuda/trsv)
  ${CMAKE_CURRENT_LIST_DIR}/triangle.cpp
  ${CMAKE_CURRENT_LIST_DIR}/transpose.cpp
  ${CMAKE_CURRENT_LIST_DIR}/factor_triangles.cpp
  ${CMAKE_CURRENT_LIST_DIR}/trsv_analysis.cpp
  ${CMAKE_CURRENT_LIST_DIR}/kernel_choice.cpp
)
