# Sources of src/io: Matrix Market I/O and the problem generators (benchmarks, tests,
# examples); nothing in the solver pipeline depends on them.
list(APPEND GPUGLU_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/matrix_market.cpp
  ${CMAKE_CURRENT_LIST_DIR}/generators.cpp
  ${CMAKE_CURRENT_LIST_DIR}/circuit_generator.cpp
  ${CMAKE_CURRENT_LIST_DIR}/elasticity_generator.cpp
  ${CMAKE_CURRENT_LIST_DIR}/generator_spec.cpp
)
