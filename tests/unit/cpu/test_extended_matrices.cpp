// SparseLU on the SuiteSparse matrices of ../shared/matrices, against KLU: every
// ordering, matching on and off where the diagonal allows, plain and transposed solves.
// Skipped when the folder is absent.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "gpuglu/lu.hpp"
#include "gpuglu/matrix_market.hpp"
#include "reference_test_support.hpp"
#include "sparse_lu_checks.hpp"

namespace gpuglu::test {
namespace {

std::vector<std::string> matrix_files() {
  std::vector<std::string> files;
  const std::filesystem::path dir(GPUGLU_MATRIX_DIR);
  if (!std::filesystem::is_directory(dir)) return files;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
    if (e.is_regular_file() && e.path().extension() == ".mtx") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

TEST(SparseLUExtended, every_shared_matrix_matches_klu) {
  const std::vector<std::string> files = matrix_files();
  if (files.empty()) GTEST_SKIP() << "no matrices in " << GPUGLU_MATRIX_DIR;
  for (const std::string& file : files) {
    const CsrMatrix<int32_t, double> a = read_matrix_market(file);
    Klu klu(a);
    const double cond = klu.condest();
    for (bool matching : {true, false}) {
      if (!matching && !has_nonzero_diagonal(a)) continue;
      for (Ordering ordering : {Ordering::amd, Ordering::colamd, Ordering::metis, Ordering::natural}) {
        SCOPED_TRACE(file + " ordering " + std::string(to_string(ordering)) + " matching " + std::to_string(matching) +
                     " condest " + std::to_string(cond));
        Options o;
        o.ordering = ordering;
        o.matching = matching;
        o.scaling = matching;
        if (!matching) {
          // Without matching, diagonal pivots may meet a zero during elimination (gre_115):
          // the report policy must say so, and the perturb policy must still solve.
          SparseLU lu(o);
          lu.analyze(a.view());
          const FactorStats& st = lu.factor(a.view());
          if (st.status == Status::numerically_singular) {
            EXPECT_GE(st.pivot_column_original, 0);
            o.pivot_policy = PivotPolicy::perturb;
          }
        }
        expect_matches_klu(a, o, klu, cond);
      }
    }
  }
}

}  // namespace
}  // namespace gpuglu::test
