// The supernodal engine's analysis (LuEngine::supernodal) gives the same Schedule however it
// is run: on one thread or two, analysis after analysis, on 2-D, 3-D, circuit and power-grid
// matrices and on one that needs the matching (issue 14: its arrays are allocated with a
// huge-page hint, analysis/pipeline_steps.hpp's resize_large; gpuglu_analysis_bench's hash
// checks the same on large matrices). test_supernodal_lu.cpp checks the layout itself.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <string>
#include <vector>

#include "analysis/pipeline_steps.hpp"
#include "analysis_test_support.hpp"
#include "gpuglu/analysis.hpp"
#include "gpuglu/generators.hpp"

namespace gpuglu::test {
namespace {

void expect_same(const Schedule& a, const Schedule& b) {
  EXPECT_EQ(a.row_perm, b.row_perm);
  EXPECT_EQ(a.col_perm, b.col_perm);
  EXPECT_EQ(a.row_perm_inv, b.row_perm_inv);
  EXPECT_EQ(a.col_perm_inv, b.col_perm_inv);
  EXPECT_EQ(a.row_scale, b.row_scale);
  EXPECT_EQ(a.col_scale, b.col_scale);
  EXPECT_EQ(a.f_colptr, b.f_colptr);
  EXPECT_EQ(a.f_rowind, b.f_rowind);
  EXPECT_EQ(a.f_diag, b.f_diag);
  EXPECT_EQ(a.u_rowptr, b.u_rowptr);
  EXPECT_EQ(a.u_colind, b.u_colind);
  EXPECT_EQ(a.u_pos, b.u_pos);
  EXPECT_EQ(a.l_rowptr, b.l_rowptr);
  EXPECT_EQ(a.l_colind, b.l_colind);
  EXPECT_EQ(a.l_pos, b.l_pos);
  EXPECT_EQ(a.value_map, b.value_map);
  EXPECT_EQ(a.value_scale, b.value_scale);
  EXPECT_EQ(a.nnz_l, b.nnz_l);
  EXPECT_EQ(a.nnz_u, b.nnz_u);
  EXPECT_EQ(a.factor_flops, b.factor_flops);
  EXPECT_EQ(a.ordering, b.ordering);
  const Supernodes& x = a.supernodes;
  const Supernodes& y = b.supernodes;
  EXPECT_EQ(x.count, y.count);
  EXPECT_EQ(x.first, y.first);
  EXPECT_EQ(x.of_col, y.of_col);
  EXPECT_EQ(x.parent, y.parent);
  EXPECT_EQ(x.rows_ptr, y.rows_ptr);
  EXPECT_EQ(x.rows, y.rows);
  EXPECT_EQ(x.l_ptr, y.l_ptr);
  EXPECT_EQ(x.u_ptr, y.u_ptr);
  EXPECT_EQ(x.values, y.values);
  EXPECT_EQ(x.level_ptr, y.level_ptr);
  EXPECT_EQ(x.level_nodes, y.level_nodes);
  EXPECT_EQ(x.f_pos, y.f_pos);
  EXPECT_EQ(x.explicit_zeros, y.explicit_zeros);
}

// F spelled out too, so that every array is compared; no ordering cache, so that every
// analysis orders.
Schedule supernodal_schedule(const CsrMatrix<int32_t, double>& a, int threads) {
  Options o;
  o.lu_engine = LuEngine::supernodal;
  o.num_threads = threads;
  o.ordering_cache = false;
  const int saved = omp_get_max_threads();
  omp_set_num_threads(threads);
  Schedule s = analyze(a.view(), o);
  EXPECT_FALSE(s.factor_spelled_out()) << "analyze() spells F out";
  spell_out_factor(s, threads);
  EXPECT_TRUE(s.factor_spelled_out());
  omp_set_num_threads(saved);
  return s;
}

TEST(SupernodalAnalysis, the_schedule_is_the_same_on_any_thread_count_and_every_run) {
  // Sizes large enough for the parallel loops and for the huge-page path (F >= 4 MiB).
  const std::vector<std::string> specs = {"lap2d5:200x200", "lap3d7:24x24x24", "circuit:30000:300",
                                          "powergrid:20000:100", "elast3d:8x8x8"};
  std::vector<CsrMatrix<int32_t, double>> matrices;
  for (const std::string& spec : specs) matrices.push_back(gen::from_spec(spec));
  matrices.push_back(scrambled_matrix(3000, 6, 17));  // the matching moves most pivots
  for (size_t i = 0; i < matrices.size(); ++i) {
    SCOPED_TRACE(i < specs.size() ? specs[i] : std::string("scrambled"));
    const Schedule one = supernodal_schedule(matrices[i], 1);
    ASSERT_TRUE(one.supernodal());
    expect_same(one, supernodal_schedule(matrices[i], 2));
    expect_same(one, supernodal_schedule(matrices[i], 1));
  }
}

// The value map points into the panels directly; F spelled out afterwards agrees: each input
// entry's panel position is f_pos of its position in F.
TEST(SupernodalAnalysis, the_value_map_points_where_F_places_each_entry) {
  for (const std::string spec : {"circuit:3000:30", "lap3d7:10x10x10"}) {
    SCOPED_TRACE(spec);
    const CsrMatrix<int32_t, double> a = gen::from_spec(spec);
    const Schedule s = supernodal_schedule(a, 1);
    for (int32_t r = 0; r < a.nrows; ++r)
      for (int32_t p = a.rowptr[r]; p < a.rowptr[r + 1]; ++p) {
        const int32_t k = s.row_perm_inv[r], l = s.col_perm_inv[a.colind[p]];
        const auto first = s.f_rowind.begin() + s.f_colptr[l];
        const auto last = s.f_rowind.begin() + s.f_colptr[l + 1];
        const auto it = std::lower_bound(first, last, k);
        ASSERT_TRUE(it != last && *it == k) << "C(" << k << ", " << l << ") is not in F";
        ASSERT_EQ(s.value_map[p], s.supernodes.f_pos[static_cast<size_t>(it - s.f_rowind.begin())]);
      }
    // The counts analyze() gives without F are F's.
    ASSERT_EQ(s.nnz_l + s.nnz_u, static_cast<int64_t>(s.f_rowind.size()));
  }
}

TEST(SupernodalAnalysis, resize_large_is_resize) {
  for (bool hint : {true, false}) {
    for (size_t n : {size_t{0}, size_t{10}, size_t{1} << 19, (size_t{1} << 20) + 3, size_t{3} << 20}) {
      std::vector<int64_t> v;
      analysis::resize_large(v, n, hint);
      ASSERT_EQ(v.size(), n);
      for (int64_t x : v) ASSERT_EQ(x, 0);
      // A vector with contents keeps them, as resize does.
      std::vector<int32_t> w(5, 7);
      analysis::resize_large(w, n + 5, hint);
      ASSERT_EQ(w.size(), n + 5);
      for (size_t k = 0; k < 5; ++k) ASSERT_EQ(w[k], 7);
      for (size_t k = 5; k < w.size(); ++k) ASSERT_EQ(w[k], 0);
    }
  }
}

}  // namespace
}  // namespace gpuglu::test
