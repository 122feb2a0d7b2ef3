#pragma once
// Matrices shared by the test suites: small generated ones (always available) and
// the SuiteSparse files under GPUGLU_MATRIX_DIR (optional; tests skip without them).
#include <algorithm>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "gpuglu/generators.hpp"
#include "gpuglu/matrix.hpp"

namespace gpuglu::test {

// One of each generator family, 50 to 3000 unknowns: large enough for several
// levels and real fill, small enough for brute-force checks.
inline std::vector<std::pair<std::string, CsrMatrixD>> small_generated_matrices() {
  static const char* const specs[] = {
      "lap2d5:20x15",      "lap2d9:12x10",         "lap3d27:6x6x6",    "convdiff3d:8x7x6:5",
      "circuit:3000:40:7", "powergrid:1200:12:3", "randdd:800:6:11",  "kkt:300:80:5",
      "circuit:50:5:2",
  };
  std::vector<std::pair<std::string, CsrMatrixD>> list;
  for (const char* spec : specs) list.emplace_back(spec, gen::from_spec(spec));
  return list;
}

#ifdef GPUGLU_MATRIX_DIR
inline std::filesystem::path shared_matrix_dir() { return std::filesystem::path(GPUGLU_MATRIX_DIR); }
#else
inline std::filesystem::path shared_matrix_dir() { return {}; }
#endif

inline bool shared_matrix_dir_available() {
  std::error_code ec;
  const std::filesystem::path dir = shared_matrix_dir();
  return !dir.empty() && std::filesystem::is_directory(dir, ec);
}

// Every *.mtx below the directory (it has subfolders per matrix kind), sorted so
// that test output is stable.
inline std::vector<std::string> shared_matrix_files() {
  std::vector<std::string> files;
  if (!shared_matrix_dir_available()) return files;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(shared_matrix_dir(), ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_regular_file(ec) && it->path().extension() == ".mtx") files.push_back(it->path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace gpuglu::test
