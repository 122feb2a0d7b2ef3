#include "bench_matrices.hpp"

#include <algorithm>
#include <filesystem>

#include "gpuglu/generators.hpp"
#include "gpuglu/matrix_market.hpp"

namespace gpuglu::bench {

namespace fs = std::filesystem;

BenchMatrix load_bench_matrix(const std::string& arg) {
  BenchMatrix m;
  const fs::path p(arg);
  if (p.extension() == ".mtx") {
    m.name = p.stem().string();
    m.kind = p.parent_path().filename().string();
    m.a = read_matrix_market(arg);
  } else {
    m.name = arg;
    m.kind = "generated";
    m.a = gen::from_spec(arg);
  }
  return m;
}

std::vector<std::string> matrix_files_below(const std::string& dir) {
  std::vector<std::string> files;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return files;
  for (const auto& e : fs::recursive_directory_iterator(dir, ec))
    if (e.is_regular_file() && e.path().extension() == ".mtx") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace gpuglu::bench
