# Standalone command-line tools (no PETSc needed).
add_executable(gpuglu_mmgen ${CMAKE_CURRENT_LIST_DIR}/mmgen.cpp)
target_link_libraries(gpuglu_mmgen PRIVATE gpuglu::gpuglu)
