// The static-pivot rule (src/core/numeric_types.hpp), written once for the CPU engines and the
// kernels: a tiny pivot as the engines have always decided it, and the perturbed pivot bit for
// bit the product it was before the rule moved into pivot_is_tiny / perturbed_pivot_size.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "core/numeric_types.hpp"

namespace gpuglu {
namespace {

uint64_t bits(double x) {
  uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

TEST(PivotRule, tiny_means_at_or_below_the_threshold_or_the_zero_pivot_and_nan) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(pivot_is_tiny(0.0, 0.0, 1e-13, 0.0));    // an all-zero column
  EXPECT_TRUE(pivot_is_tiny(0.0, 1.0, 1e-13, 0.0));
  EXPECT_TRUE(pivot_is_tiny(1e-13, 1.0, 1e-13, 0.0));  // at the threshold
  EXPECT_FALSE(pivot_is_tiny(2e-13, 1.0, 1e-13, 0.0));
  EXPECT_TRUE(pivot_is_tiny(1e-3, 1.0, 1e-13, 1e-3));  // at zero_pivot
  EXPECT_FALSE(pivot_is_tiny(2e-3, 1.0, 1e-13, 1e-3));
  EXPECT_TRUE(pivot_is_tiny(nan, 1.0, 1e-13, 0.0));
  PivotRule rule;
  rule.threshold = 0.1;
  rule.zero_pivot = 1e-8;
  EXPECT_EQ(rule.tiny(0.1, 1.0), pivot_is_tiny(0.1, 1.0, 0.1, 1e-8));
  EXPECT_TRUE(rule.tiny(0.05, 1.0));
  EXPECT_FALSE(rule.tiny(0.5, 1.0));
}

TEST(PivotRule, perturbed_pivot_is_the_signed_product_bit_for_bit) {
  std::mt19937_64 gen(26);
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-300, 300);
  PivotRule rule;
  for (int i = 0; i < 100000; ++i) {
    const double pivot = std::ldexp(mantissa(gen), exponent(gen));
    const double colmax = i % 97 == 0 ? 0.0 : std::ldexp(std::fabs(mantissa(gen)), exponent(gen));
    rule.perturbation = std::ldexp(std::fabs(mantissa(gen)), -exponent(gen) / 10 - 20);
    // The formula before the rule was shared: the sign applied to perturbation, then the product.
    const double before = (pivot < 0.0 ? -rule.perturbation : rule.perturbation) * (colmax > 0.0 ? colmax : 1.0);
    ASSERT_EQ(bits(rule.perturbed(pivot, colmax)), bits(before)) << pivot << " " << colmax;
    const double size = perturbed_pivot_size(rule.perturbation, colmax);
    ASSERT_EQ(bits(pivot < 0.0 ? -size : size), bits(before));
  }
}

}  // namespace
}  // namespace gpuglu
