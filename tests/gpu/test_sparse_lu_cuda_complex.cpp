// Complex scalars with a GPU present: the CUDA engines are real only, so backend automatic
// keeps a complex factorization on the CPU however large its factor (and solves it there),
// and backend cuda is refused with an error naming backend cpu (docs/user_guide.md, "Complex
// scalars"). Skipped without a usable GPU (the unit tests cover the refusal without one).
#include <gtest/gtest.h>

#include <complex>
#include <string>
#include <vector>

#include "complex_test_support.hpp"
#include "gpu_test_support.hpp"
#include "gpuglu/generators.hpp"
#include "gpuglu/ldlt.hpp"
#include "gpuglu/lu.hpp"
#include "gpuglu/matrix_ops.hpp"

namespace gpuglu::test {
namespace {

TEST(SparseLUCudaComplex, automatic_backend_keeps_complex_factors_on_the_cpu) {
  GPUGLU_REQUIRE_GPU();
  const CsrZ a = rotated(gen::from_spec("circuit:20000:200:3"), 5);
  Options o;
  o.backend = Backend::automatic;
  o.auto_gpu_min_factor_nnz = 0;  // a real factor of any size would go to the GPU
  SparseLUComplex lu(o);
  lu.analyze(a.view());
  EXPECT_EQ(lu.active_backend(), Backend::cpu);
  EXPECT_EQ(lu.device_bytes(), 0);
  ASSERT_EQ(lu.factor(a.view()).status, Status::ok);
  const std::vector<Cplx> x_true = complex_vector(a.nrows, 1);
  std::vector<Cplx> b(x_true.size()), x(x_true.size());
  spmv(a.view(), x_true.data(), b.data());
  ASSERT_EQ(lu.solve(b.data(), x.data()).status, Status::ok);
  EXPECT_LE(backward_error(a.view(), x.data(), b.data()), 1e-14);

  const CsrZ h = hermitian_of(gen::from_spec("lap3d27:10x10x10"), 2.0, 3);
  SparseLDLTComplex ldlt(o);
  ldlt.analyze(h.view(), StoredTriangle::full, nullptr, true, false, Symmetry::hermitian);
  EXPECT_EQ(ldlt.active_backend(), Backend::cpu);
}

TEST(SparseLUCudaComplex, backend_cuda_is_refused_naming_the_cpu_backend) {
  GPUGLU_REQUIRE_GPU();
  const CsrZ a = rotated(gen::from_spec("randdd:500:5:1"), 2);
  SparseLUComplex lu(cuda_options());
  try {
    lu.analyze(a.view());
    FAIL() << "backend cuda accepted a complex matrix";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::unsupported);
    EXPECT_NE(std::string(e.what()).find("backend cpu"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace gpuglu::test
