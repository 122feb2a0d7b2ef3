// What src/cuda provides, in a build without nvcc: no device is ever usable, the CUDA
// engine cannot be built, and the GPU level analysis answers as every other CUDA path
// does, so that callers fall back to the CPU where they can.
#include "api/cuda_module.hpp"
#include "api/dense_root.hpp"
#include "api/split_device.hpp"
#include "core/numeric_engine.hpp"
#include "cuda/trsv/trsv_levels.hpp"
#include "gpuglu/device.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu {

bool built_with_cuda() noexcept { return false; }

bool cuda_module_loaded() noexcept { return false; }

bool cuda_running() noexcept { return false; }

DeviceInfo query_device(int32_t, int32_t) noexcept {
  DeviceInfo info;
  info.reason = "built without CUDA";
  return info;
}

void prepare_device(int32_t) noexcept {}

void copy_device_to_host(const double*, double*, int64_t n) {
  if (n > 0) throw Error(Status::unsupported, "device arrays: built without CUDA");
}

void copy_host_to_device(const double*, double*, int64_t n) {
  if (n > 0) throw Error(Status::unsupported, "device arrays: built without CUDA");
}

template <class Scalar>
std::unique_ptr<BasicNumericEngine<Scalar>> make_cuda_engine(const Schedule&, PatternRef, const Options&, int, bool) {
  throw Error(Status::unsupported, "the CUDA numeric backend is not in this build; use backend cpu or auto");
}
template std::unique_ptr<BasicNumericEngine<double>> make_cuda_engine(const Schedule&, PatternRef, const Options&, int,
                                                                      bool);
template std::unique_ptr<BasicNumericEngine<Complex>> make_cuda_engine(const Schedule&, PatternRef, const Options&,
                                                                       int, bool);

namespace cuda {

// As the CUDA build: a's dependency part is checked first, and an empty triangle needs no device.
void compute_levels_on_device(const trsv::TriangleView& t, trsv::TrsvAnalysis& a, int, DeviceLevelStats* stats,
                              const KahnTuning&) {
  trsv::check_dependencies(t, a);
  if (stats) *stats = DeviceLevelStats{};
  if (t.n == 0) {
    trsv::compute_levels(t, a);
    return;
  }
  throw Error(Status::no_device, "GPU level analysis: built without CUDA");
}

trsv::TrsvAnalysis analyze_with_device_levels(const trsv::TriangleView& t, int device_ordinal, DeviceLevelStats* stats,
                                              const KahnTuning& tuning) {
  trsv::TrsvAnalysis a = trsv::analyze_dependencies(t);  // invalid input is reported as such first
  compute_levels_on_device(t, a, device_ordinal, stats, tuning);
  return a;
}

}  // namespace cuda
namespace api {

std::unique_ptr<DenseRoot> make_cuda_dense_root(int32_t, const PivotRule&, bool) {
  throw Error(Status::unsupported, "the split factorization's GPU root: built without CUDA");
}

std::unique_ptr<SplitDevicePath> make_split_device_path(const SplitPartition&, const std::array<SplitHalf, 2>&,
                                                        PatternRef, std::array<int32_t, 2>, Staging) {
  throw Error(Status::unsupported, "the split factorization's device path: built without CUDA");
}

}  // namespace api

}  // namespace gpuglu
