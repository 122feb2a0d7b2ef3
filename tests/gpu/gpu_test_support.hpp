#pragma once
// What every GPU test needs: skip (CTest reports Skipped) where no CUDA device is usable,
// and the options of SparseLU on the CUDA backend.
#include <gtest/gtest.h>

#include "gpuglu/device.hpp"
#include "gpuglu/options.hpp"

#define GPUGLU_REQUIRE_GPU()                                                                  \
  do {                                                                                        \
    const ::gpuglu::DeviceInfo gpuglu_dev_ = ::gpuglu::query_device();                        \
    if (!gpuglu_dev_.usable) GTEST_SKIP() << "no usable CUDA device: " << gpuglu_dev_.reason; \
  } while (0)

namespace gpuglu::test {

inline Options cuda_options() {
  Options o;
  o.backend = Backend::cuda;
  return o;
}

}  // namespace gpuglu::test
