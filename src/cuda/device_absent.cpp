// Device discovery in a build without nvcc: there is never a usable GPU.
#include "gpuglu/device.hpp"

namespace gpuglu {

bool built_with_cuda() noexcept { return false; }

DeviceInfo query_device(int32_t, int32_t) noexcept {
  DeviceInfo info;
  info.reason = "built without CUDA";
  return info;
}

}  // namespace gpuglu
