// The CUDA module loads on demand (api/cuda_module.hpp): a process whose factors the size
// rule keeps on the CPU maps none of CUDA's libraries, the first device query loads it, and a
// module that does not load leaves every device unusable with its reason. This binary does
// not link the module (gpuglu_add_gtest LAZY_CUDA), as a PETSc program's process does not;
// each test runs in a process of its own (CTest), since a loaded module stays.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "api/cuda_module.hpp"
#include "api/engine_choice.hpp"
#include "error_status.hpp"
#include "gpuglu/device.hpp"
#include "gpuglu/generators.hpp"
#include "gpuglu/ldlt.hpp"
#include "gpuglu/lu.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu::test {
namespace {

// Whether NVIDIA's driver loads here (loading it is harmless: each test has its own process).
bool driver_loads() { return dlopen(kCudaDriverLibrary, RTLD_LAZY | RTLD_LOCAL) != nullptr; }

bool mapped(const std::string& library) {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line))
    if (line.find(library) != std::string::npos) return true;
  return false;
}

template <class Solver>
void solve_small(Solver& solver, const CsrMatrix<int32_t, double>& a) {
  solver.analyze(a.view());
  ASSERT_EQ(solver.factor(a.view()).status, Status::ok);
  std::vector<double> b(static_cast<size_t>(a.nrows), 1.0), x(b.size());
  solver.solve(b.data(), x.data());
  EXPECT_EQ(solver.active_backend(), Backend::cpu);
}

TEST(CudaModule, small_factors_under_automatic_load_no_cuda_library) {
  if (!built_with_cuda()) GTEST_SKIP() << "built without CUDA: nothing to load";
  // Complete and incomplete, LU and LDL^T, all below the size rule by their fill.
  const auto a = gen::laplacian_2d(12, 12);
  SparseLU lu;
  solve_small(lu, a);
  Options ilu_options;
  ilu_options.ilu_levels = 0;
  SparseLU ilu(ilu_options);
  solve_small(ilu, a);
  SparseLDLT ldlt;
  solve_small(ldlt, a);
  EXPECT_FALSE(cuda_module_loaded());
  EXPECT_FALSE(mapped("libgpuglu_cuda"));
  EXPECT_FALSE(mapped("libcublas"));
  EXPECT_FALSE(mapped("libcudart"));
  // The first device query loads it where NVIDIA's driver is (on a machine without a GPU
  // too); without the driver it loads nothing and says why.
  const DeviceInfo device = query_device();
  if (!device.usable) EXPECT_FALSE(device.reason.empty());
  if (driver_loads()) {
    EXPECT_TRUE(cuda_running());  // the driver is among the loaded objects now
    EXPECT_TRUE(cuda_module_loaded()) << device.reason;
    EXPECT_TRUE(mapped("libgpuglu_cuda"));
  } else {
    EXPECT_FALSE(device.usable);
    EXPECT_NE(device.reason.find("no NVIDIA driver"), std::string::npos) << device.reason;
    EXPECT_FALSE(cuda_module_loaded());
    EXPECT_FALSE(mapped("libcudart"));
    EXPECT_FALSE(cuda_running());
  }
}

TEST(CudaModule, a_factor_the_cold_start_keeps_on_the_cpu_loads_no_cuda_library) {
  if (!built_with_cuda()) GTEST_SKIP() << "built without CUDA: nothing to load";
  // nnz(A) is below the size rule (no context warm-up), nnz(L+U) passes it, and the flops are
  // far below the cold-start bound on one thread: the rule decides before any device count,
  // which would load the module and start the driver (libcuda mapped: CUDA "running").
  const auto a = gen::laplacian_2d(120, 120);
  Options o;
  o.num_threads = 1;
  SparseLU lu(o);
  solve_small(lu, a);
  ASSERT_GE(lu.schedule().nnz_factor(), o.auto_gpu_min_factor_nnz);
  EXPECT_NE(lu.backend_note().find("cold-start rule"), std::string::npos) << lu.backend_note();
  EXPECT_FALSE(cuda_module_loaded());
  EXPECT_FALSE(mapped("libgpuglu_cuda"));
  EXPECT_FALSE(mapped("libcudart"));
}

TEST(CudaModule, an_a_past_the_size_rule_whose_amd_count_is_small_starts_no_cuda) {
  if (!built_with_cuda()) GTEST_SKIP() << "built without CUDA: nothing to load";
  // A alone passes the size rule, so a context warm-up would start beside its analysis; but it
  // waits for AMD's count (api::DeviceWarmUp::counted), which is below its margin over the
  // cold-start bound on 4 threads, and the cold start then keeps the factor on the CPU. LU and
  // LDL^T (whose count is halved).
  const auto a = gen::laplacian_2d(200, 200);
  Options o;
  o.num_threads = 4;
  ASSERT_TRUE(api::warm_up_context(o, a.nnz()));
  SparseLU lu(o);
  solve_small(lu, a);
  EXPECT_NE(lu.backend_note().find("cold-start rule"), std::string::npos) << lu.backend_note();
  SparseLDLT ldlt(o);
  solve_small(ldlt, a);
  EXPECT_NE(ldlt.backend_note().find("cold-start rule"), std::string::npos) << ldlt.backend_note();
  EXPECT_FALSE(cuda_module_loaded());
  EXPECT_FALSE(mapped("libgpuglu_cuda"));
  EXPECT_FALSE(mapped("libcudart"));
}

TEST(CudaModule, a_module_that_does_not_load_leaves_every_device_unusable_with_its_reason) {
  if (!built_with_cuda()) GTEST_SKIP() << "built without CUDA: nothing to load";
  ASSERT_EQ(setenv("GPUGLU_CUDA_MODULE", "/nonexistent/libgpuglu_cuda.so.0", 1), 0);
  // Without NVIDIA's driver the module is not tried: the reason names the driver.
  const std::string reason = driver_loads() ? "the CUDA module did not load" : "no NVIDIA driver";
  const DeviceInfo device = query_device();
  EXPECT_FALSE(device.usable);
  EXPECT_NE(device.reason.find(reason), std::string::npos) << device.reason;
  EXPECT_FALSE(cuda_module_loaded());
  // backend cuda names the reason; automatic factors on the CPU whatever the size.
  const auto a = gen::laplacian_2d(120, 120);
  Options o;
  o.backend = Backend::cuda;
  SparseLU on_gpu(o);
  std::string why;
  EXPECT_EQ(status_of([&] { on_gpu.analyze(a.view()); }, &why), Status::no_device);
  EXPECT_NE(why.find(reason), std::string::npos) << why;
  SparseLU automatic;
  solve_small(automatic, a);
}

}  // namespace
}  // namespace gpuglu::test
