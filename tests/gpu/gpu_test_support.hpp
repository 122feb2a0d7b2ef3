#pragma once
// What every GPU test needs: skip (CTest reports Skipped) where no CUDA device is usable,
// the options of SparseLU on the CUDA backend, and what the engine-level tests hand an engine.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "core/numeric_engine.hpp"
#include "gpuglu/device.hpp"
#include "gpuglu/matrix.hpp"
#include "gpuglu/options.hpp"

#define GPUGLU_REQUIRE_GPU()                                                                  \
  do {                                                                                        \
    const ::gpuglu::DeviceInfo gpuglu_dev_ = ::gpuglu::query_device();                        \
    if (!gpuglu_dev_.usable) GTEST_SKIP() << "no usable CUDA device: " << gpuglu_dev_.reason; \
  } while (0)

namespace gpuglu::test {

// The column engines (GLU3.0, Chen & Wang's LDL^T) on the CUDA backend: the tests that take these check its
// kernels against the CPU column engine, entry for entry where the contract says so.
inline Options cuda_options() {
  Options o;
  o.backend = Backend::cuda;
  o.lu_engine = LuEngine::column;
  o.ldlt_engine = LuEngine::column;
  return o;
}

// What a user gets with backend cuda and nothing else set (LuEngine::automatic: the
// supernodal engines for real matrices, LU and LDL^T).
inline Options default_cuda_options() {
  Options o;
  o.backend = Backend::cuda;
  return o;
}

// The rule SparseLU and SparseLDLT give their engines under the default policy: tiny pivots
// perturbed.
inline PivotRule perturbing_rule(const Options& o) {
  PivotRule rule = PivotRule::from(o);
  rule.policy = PivotPolicy::perturb;
  return rule;
}

// A's pattern as PatternRef takes it (64-bit row pointers), alive as long as this.
struct PatternCopy {
  std::vector<int64_t> rowptr;
  PatternRef ref;
  explicit PatternCopy(const CsrMatrix<int32_t, double>& a) : rowptr(a.rowptr.begin(), a.rowptr.end()) {
    ref = {a.nrows, rowptr.data(), a.colind.data()};
  }
};

}  // namespace gpuglu::test
