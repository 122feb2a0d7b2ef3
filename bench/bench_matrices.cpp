#include "bench_matrices.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <stdexcept>

#include "gpuglu/generators.hpp"
#include "gpuglu/matrix_market.hpp"

namespace gpuglu::bench {

namespace fs = std::filesystem;

namespace {

// An xz-compressed Matrix Market file (the collection's G3_circuit.mtx.xz), through xz -dc.
CsrMatrix<int32_t, double> read_xz_matrix_market(const std::string& path) {
  std::string quoted = "'";
  for (char c : path) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  quoted += "'";
  FILE* pipe = popen(("xz -dc " + quoted).c_str(), "r");
  if (!pipe) throw std::runtime_error("cannot run xz -dc on " + path);
  std::string text;
  char buf[1 << 16];
  for (size_t got; (got = std::fread(buf, 1, sizeof buf, pipe)) > 0;) text.append(buf, got);
  if (pclose(pipe) != 0) throw std::runtime_error("xz -dc " + path + " failed");
  std::istringstream in(std::move(text));
  return read_matrix_market(in, path);
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

BenchMatrix load_bench_matrix(const std::string& arg) {
  BenchMatrix m;
  const fs::path p(arg);
  if (p.extension() == ".mtx") {
    m.name = p.stem().string();
    m.kind = p.parent_path().filename().string();
    m.a = read_matrix_market(arg);
  } else if (ends_with(arg, ".mtx.xz")) {
    m.name = p.stem().stem().string();
    m.kind = p.parent_path().filename().string();
    m.a = read_xz_matrix_market(arg);
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
