#pragma once
// A benchmark matrix spread over MPI ranks as MatLoad spreads one: contiguous blocks of
// rows, rank r holding n / size rows (one more on the first n % size ranks, PETSc's
// PETSC_DECIDE split). A Matrix Market file is read by rank 0 alone and each block sent to
// its rank; a generator spec is built on every rank, which keeps its own block.
#include <mpi.h>

#include <cstdint>
#include <string>

#include "gpuglu/matrix.hpp"

namespace gpuglu::bench {

struct RowBlock {
  std::string name, kind;  // as BenchMatrix
  int64_t n = 0, nnz = 0;  // of the whole matrix
  int32_t first_row = 0;   // global index of local's first row
  // This rank's rows: nrows local rows, ncols = n, global column indices, sorted.
  CsrMatrix<int32_t, double> local;
};

// arg as load_bench_matrix's. Collective over comm; throws std::runtime_error on every rank
// when rank 0 cannot read the file or the matrix is not square.
RowBlock load_row_block(const std::string& arg, MPI_Comm comm);

}  // namespace gpuglu::bench
