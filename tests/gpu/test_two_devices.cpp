// Factors of every engine on two GPUs of one process (the device-engine shell keeps
// everything per device: its stream, memory, library handles, and the kernel attributes and
// device facts of src/cuda/engine, which were once set for the first device only and failed
// a supernodal factor on the second). The factors live side by side, are refactored and
// solved in turns - each call switching the current device - and, in the second test, from
// two threads at once. Skipped with fewer than two usable GPUs.
#include <gtest/gtest.h>

#include "gpu_test_support.hpp"

#include <complex>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "gpuglu/device.hpp"
#include "gpuglu/generators.hpp"
#include "gpuglu/ldlt.hpp"
#include "gpuglu/lu.hpp"
#include "gpuglu/matrix_ops.hpp"

namespace gpuglu::test {
namespace {

#define GPUGLU_REQUIRE_TWO_GPUS()                                                                 \
  do {                                                                                            \
    GPUGLU_REQUIRE_GPU();                                                                         \
    if (query_device().device_count < 2) GTEST_SKIP() << "one GPU: the two-device test needs two"; \
  } while (0)

// One engine's factorization of one matrix on one device, checked by its residual.
struct DeviceFactor {
  std::string what;
  std::function<void()> refactor_and_check;
};

template <class Solver, class Scalar>
DeviceFactor make_factor(const std::string& what, const CsrMatrix<int32_t, Scalar>& a, const Options& o,
                         const std::function<void(Solver&)>& analyze, int device) {
  auto solver = std::make_shared<Solver>(o);
  analyze(*solver);
  auto b = std::make_shared<std::vector<Scalar>>(static_cast<size_t>(a.nrows));
  std::vector<Scalar> xtrue(b->size(), Scalar(1.0));
  spmv(a.view(), xtrue.data(), b->data());
  return {what + " on device " + std::to_string(device), [solver, b, &a, device, what] {
            SCOPED_TRACE(what + " on device " + std::to_string(device));
            ASSERT_EQ(solver->factor(a.view()).status, Status::ok);
            EXPECT_EQ(solver->active_backend(), Backend::cuda);
            EXPECT_EQ(solver->device_info().ordinal, device);
            std::vector<Scalar> x(b->size());
            ASSERT_EQ(solver->solve(b->data(), x.data()).status, Status::ok);
            EXPECT_LT(relative_residual(a.view(), x.data(), b->data()), 1e-10);
          }};
}

struct Matrices {
  CsrMatrix<int32_t, double> circuit = gen::from_spec("circuit:20000:200");
  CsrMatrix<int32_t, double> spd = gen::from_spec("lap3d7:16x16x16");
  CsrMatrix<int32_t, std::complex<double>> complex_lu;
  Matrices() {
    complex_lu.nrows = circuit.nrows;
    complex_lu.ncols = circuit.ncols;
    complex_lu.rowptr = circuit.rowptr;
    complex_lu.colind = circuit.colind;
    complex_lu.values.resize(circuit.values.size());
    for (size_t p = 0; p < circuit.values.size(); ++p)
      complex_lu.values[p] = {circuit.values[p], 0.25 * circuit.values[p]};
  }
};

// Every engine on `device`: the supernodal LU, the column LU (real and complex), the column
// LDL^T.
std::vector<DeviceFactor> factors_on(const Matrices& m, int device) {
  Options o = default_cuda_options();
  o.device = device;
  std::vector<DeviceFactor> out;
  for (LuEngine engine : {LuEngine::supernodal, LuEngine::column}) {
    Options e = o;
    e.lu_engine = engine;
    out.push_back(make_factor<SparseLU, double>(std::string(to_string(engine)) + " LU", m.circuit, e,
                                                [&m](SparseLU& lu) { lu.analyze(m.circuit.view()); }, device));
  }
  Options c = o;
  c.lu_engine = LuEngine::column;
  out.push_back(make_factor<SparseLUComplex, std::complex<double>>(
      "complex column LU", m.complex_lu, c, [&m](SparseLUComplex& lu) { lu.analyze(m.complex_lu.view()); }, device));
  out.push_back(make_factor<SparseLDLT, double>(
      "column LDL^T", m.spd, o, [&m](SparseLDLT& ldlt) { ldlt.analyze(m.spd.view()); }, device));
  return out;
}

TEST(TwoDevices, every_engine_factors_and_solves_on_each_device_in_turns) {
  GPUGLU_REQUIRE_TWO_GPUS();
  const Matrices m;
  std::vector<DeviceFactor> first = factors_on(m, 0);
  std::vector<DeviceFactor> second = factors_on(m, 1);
  for (int round = 0; round < 2; ++round)
    for (size_t i = 0; i < first.size(); ++i) {
      first[i].refactor_and_check();
      second[i].refactor_and_check();
    }
}

TEST(TwoDevices, every_engine_factors_and_solves_on_each_device_from_its_own_thread) {
  GPUGLU_REQUIRE_TWO_GPUS();
  const Matrices m;
  std::vector<std::thread> threads;
  for (int device = 0; device < 2; ++device)
    threads.emplace_back([&m, device] {
      std::vector<DeviceFactor> mine = factors_on(m, device);
      for (int round = 0; round < 3; ++round)
        for (DeviceFactor& f : mine) f.refactor_and_check();
    });
  for (std::thread& t : threads) t.join();
}

}  // namespace
}  // namespace gpuglu::test
