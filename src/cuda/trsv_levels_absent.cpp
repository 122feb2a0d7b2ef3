// The GPU level analysis in a build without nvcc: there is no device to run it on, so the
// callers (an option that asks for GPU levels) get the same no_device error as every other
// CUDA path, and can fall back to trsv::analyze.
#include "cuda/trsv_levels.hpp"

#include "gpuglu/status.hpp"

namespace gpuglu::cuda {

// As the CUDA build: a's dependency part is checked first, and an empty triangle needs no device.
void compute_levels_on_device(const trsv::TriangleView& t, trsv::TrsvAnalysis& a, int, DeviceLevelStats* stats) {
  trsv::check_dependencies(t, a);
  if (stats) *stats = DeviceLevelStats{};
  if (t.n == 0) {
    trsv::compute_levels(t, a);
    return;
  }
  throw Error(Status::no_device, "GPU level analysis: built without CUDA");
}

trsv::TrsvAnalysis analyze_with_device_levels(const trsv::TriangleView& t, int device_ordinal,
                                              DeviceLevelStats* stats) {
  trsv::TrsvAnalysis a = trsv::analyze_dependencies(t);  // invalid input is reported as such first
  compute_levels_on_device(t, a, device_ordinal, stats);
  return a;
}

}  // namespace gpuglu::cuda
