#include "sparse_lu_checks.hpp"

#include "gpuglu/generators.hpp"

namespace gpuglu::test {

const std::vector<NamedMatrix>& accuracy_matrices() {
  static const std::vector<NamedMatrix> list = [] {
    std::vector<NamedMatrix> m;
    for (const char* spec : {"lap2d5:20x20", "lap3d7:8x8x8", "convdiff3d:8x8x8:5", "circuit:2000:20:1",
                             "powergrid:1000:10:2", "randdd:1500:5:3", "kkt:200:60:4"})
      m.push_back({spec, gen::from_spec(spec)});
    return m;
  }();
  return list;
}

}  // namespace gpuglu::test
