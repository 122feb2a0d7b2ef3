# Sources of src/core.
list(APPEND GPUGLU_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/status.cpp
  ${CMAKE_CURRENT_LIST_DIR}/automatic_options.cpp
  ${CMAKE_CURRENT_LIST_DIR}/numeric_engine.cpp
  ${CMAKE_CURRENT_LIST_DIR}/options.cpp
  ${CMAKE_CURRENT_LIST_DIR}/option_table.cpp
  ${CMAKE_CURRENT_LIST_DIR}/vector_norms.cpp
)
