// One name table per enum (include/gpuglu/options.hpp, trsv_kernel.hpp, schedule.hpp): every
// value has one name, every name parses back to its value, and nothing else parses.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "gpuglu/options.hpp"
#include "gpuglu/schedule.hpp"
#include "gpuglu/trsv_kernel.hpp"

namespace gpuglu::test {
namespace {

template <class Table>
void expect_round_trip(const Table& table) {
  std::set<std::string> names;
  for (const auto& e : table) {
    EXPECT_TRUE(names.insert(e.name).second) << "name " << e.name << " appears twice";
    EXPECT_EQ(name_in(table, e.value), e.name);
    EXPECT_EQ(value_in(table, e.name), e.value) << e.name;
  }
  EXPECT_FALSE(value_in(table, "no such name").has_value());
  EXPECT_FALSE(value_in(table, "").has_value());
}

TEST(OptionNames, every_table_round_trips) {
  expect_round_trip(kBackendNames);
  expect_round_trip(kOrderingNames);
  expect_round_trip(kLuEngineNames);
  expect_round_trip(kPivotPolicyNames);
  expect_round_trip(kShiftTypeNames);
  expect_round_trip(kTrsvAnalysisSiteNames);
  expect_round_trip(kStagingNames);
  expect_round_trip(kTrsvKernelNames);
  expect_round_trip(kKernelModeNames);
}

TEST(OptionNames, to_string_and_parse_read_the_tables) {
  EXPECT_EQ(to_string(PivotPolicy::automatic), "auto");
  EXPECT_EQ(parse_pivot_policy("repivot"), PivotPolicy::repivot);
  EXPECT_EQ(to_string(Ordering::given), "petsc");
  EXPECT_EQ(parse_ordering("metis"), Ordering::metis);
  EXPECT_EQ(parse_backend("cuda"), Backend::cuda);
  EXPECT_EQ(to_string(TrsvKernel::automatic), "auto");
  EXPECT_EQ(parse_trsv_kernel("slfc"), TrsvKernel::slfc);
  EXPECT_STREQ(to_string(KernelMode::large_block), "large-block");
  // The default comes first: PETSc's -help lists the values in table order.
  EXPECT_EQ(kPivotPolicyNames.front().value, Options().pivot_policy);
  EXPECT_EQ(kBackendNames.front().value, Options().backend);
}

}  // namespace
}  // namespace gpuglu::test
