#pragma once
// The matrices a benchmark run covers: generator specs (gen::from_spec) and Matrix
// Market files (.mtx, or .mtx.xz), or every *.mtx below a folder (../shared/matrices).
#include <string>
#include <vector>

#include "gpuglu/matrix.hpp"

namespace gpuglu::bench {

struct BenchMatrix {
  std::string name;  // the spec, or the file's name without folder and extension
  std::string kind;  // "generated" or the file's parent folder (circuit, general, spd)
  CsrMatrix<int32_t, double> a;
};

// arg: a spec ("circuit:200000:2000") or a path ending in .mtx or .mtx.xz (read through xz -dc).
BenchMatrix load_bench_matrix(const std::string& arg);
// Every .mtx file below dir, sorted by path; empty when dir does not exist.
std::vector<std::string> matrix_files_below(const std::string& dir);

}  // namespace gpuglu::bench
