# Sources of src/core.
list(APPEND GPUGLU_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/status.cpp
  ${CMAKE_CURRENT_LIST_DIR}/numeric_engine.cpp
  ${CMAKE_CURRENT_LIST_DIR}/options.cpp
  ${CMAKE_CURRENT_LIST_DIR}/matrix_market.cpp
  ${CMAKE_CURRENT_LIST_DIR}/generators.cpp
  ${CMAKE_CURRENT_LIST_DIR}/circuit_generator.cpp
  ${CMAKE_CURRENT_LIST_DIR}/elasticity_generator.cpp
  ${CMAKE_CURRENT_LIST_DIR}/generator_spec.cpp
  ${CMAKE_CURRENT_LIST_DIR}/vector_norms.cpp
)
