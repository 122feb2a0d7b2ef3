#pragma once
// The two floors a GPU refactorization is measured against (issue 3): the latency floor
// (levels x the cost of one graph node x 2 launches per level) and the bandwidth floor
// (factor bytes read and written once / the device's copy bandwidth). CUDA builds only.
#include <cstdint>

namespace gpuglu::bench {

struct GpuFloors {
  double graph_node_us = 0;   // replay cost of one empty kernel node in a long graph
  double launch_us = 0;       // cost of one empty kernel launch on a stream
  double copy_gb_per_s = 0;   // device-to-device copy, bytes read + written per second
};

// Measured once per run (a few hundred ms). Throws std::runtime_error on CUDA errors.
GpuFloors measure_gpu_floors();

}  // namespace gpuglu::bench
