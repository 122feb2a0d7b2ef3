#pragma once
// The column engines' level loop in the last factorization (plain C++: tests and the API
// layer read it without nvcc).
#include <cstdint>

namespace gpuglu::cuda {

// graph_ms when the loop was replayed as a graph, loop_ms when it was launched kernel by
// kernel (the other is 0).
struct LevelTiming {
  int32_t levels;
  double graph_ms;
  double loop_ms;
};

}  // namespace gpuglu::cuda
