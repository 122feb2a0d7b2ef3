#pragma once
// Where a GPU factorization's time goes, for benchmarks and tuning: the engine an analyzed
// Schedule was made for, factored with its levels launched one by one and timed between
// them. The solvers (SparseLU, SparseLDLT) report their statistics; this probe is the one
// public way to the engines' level times (bench/ reaches the engines through it alone).
#include <cstdint>
#include <memory>
#include <vector>

#include "gpuglu/options.hpp"
#include "gpuglu/schedule.hpp"

namespace gpuglu {

// One level of the schedule: the column engines time a level as a whole (ms); the
// supernodal LU times each of its four parts (ms is then their sum).
struct LevelProfile {
  float ms = 0;
  float panel = 0, blocked = 0, direct = 0, gemm = 0;
};

template <class Scalar>
class BasicNumericEngine;

class EngineProbe {
 public:
  // The CUDA engine the factory builds for s (core/numeric_engine.hpp) on o.device (< 0:
  // device 0). Throws Error(unsupported) in a build without CUDA, Error(no_device) without
  // a GPU, as the engines do.
  EngineProbe(const Schedule& s, const Options& o);
  ~EngineProbe();
  EngineProbe(const EngineProbe&) = delete;
  EngineProbe& operator=(const EngineProbe&) = delete;

  // One factorization of A's values (the schedule's CSR order) launched level by level with
  // an event after every level (part): one entry per level.
  std::vector<LevelProfile> profile_levels(const double* a_values);
  // One ordinary factorization: its device time in ms (scatter and elimination).
  double factor_device_ms(const double* a_values);

 private:
  Options options_;
  std::unique_ptr<BasicNumericEngine<double>> engine_;
};

}  // namespace gpuglu
