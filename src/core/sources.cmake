# Sources of src/core.
list(APPEND GPUGLU_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/status.cpp
  ${CMAKE_CURRENT_LIST_DIR}/options.cpp
)
