#include "row_block.hpp"

#include <stdexcept>
#include <utility>
#include <vector>

#include "bench_matrices.hpp"

namespace gpuglu::bench {

namespace {

void check(int err, const char* call) {
  if (err != MPI_SUCCESS) throw std::runtime_error(std::string(call) + " failed (MPI error " + std::to_string(err) + ")");
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// PETSc's PETSC_DECIDE split (PetscSplitOwnership): the first n % size ranks get one more row.
int32_t rows_of(int64_t n, int size, int rank) {
  return static_cast<int32_t>(n / size + (rank < n % size ? 1 : 0));
}
int32_t first_row_of(int64_t n, int size, int rank) {
  int64_t first = 0;
  for (int r = 0; r < rank; ++r) first += rows_of(n, size, r);
  return static_cast<int32_t>(first);
}

std::string broadcast(std::string s, MPI_Comm comm) {
  int len = static_cast<int>(s.size());
  check(MPI_Bcast(&len, 1, MPI_INT, 0, comm), "MPI_Bcast");
  s.resize(static_cast<size_t>(len));
  check(MPI_Bcast(s.data(), len, MPI_CHAR, 0, comm), "MPI_Bcast");
  return s;
}

// Rows [first, first + rows) of a, column indices unchanged (global).
CsrMatrix<int32_t, double> rows_of_matrix(const CsrMatrix<int32_t, double>& a, int32_t first, int32_t rows) {
  CsrMatrix<int32_t, double> b;
  b.nrows = rows;
  b.ncols = a.ncols;
  const int32_t begin = a.rowptr[first], end = a.rowptr[first + rows];
  b.rowptr.resize(static_cast<size_t>(rows) + 1);
  for (int32_t i = 0; i <= rows; ++i) b.rowptr[i] = a.rowptr[first + i] - begin;
  b.colind.assign(a.colind.begin() + begin, a.colind.begin() + end);
  b.values.assign(a.values.begin() + begin, a.values.begin() + end);
  return b;
}

// Rank 0's whole matrix a, sent block by block (the other ranks' a is empty).
CsrMatrix<int32_t, double> scatter_rows(const CsrMatrix<int32_t, double>& a, int64_t n, MPI_Comm comm) {
  int rank = 0, size = 1;
  check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  check(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  std::vector<int> row_counts(size), row_displs(size), nz_counts(size), nz_displs(size);
  std::vector<int> lengths;
  if (rank == 0) {
    for (int r = 0; r < size; ++r) {
      row_displs[r] = first_row_of(n, size, r);
      row_counts[r] = rows_of(n, size, r);
      nz_displs[r] = a.rowptr[row_displs[r]];
      nz_counts[r] = a.rowptr[row_displs[r] + row_counts[r]] - nz_displs[r];
    }
    lengths.resize(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) lengths[i] = a.rowptr[i + 1] - a.rowptr[i];
  }
  CsrMatrix<int32_t, double> b;
  b.nrows = rows_of(n, size, rank);
  b.ncols = static_cast<int32_t>(n);
  std::vector<int> my_lengths(static_cast<size_t>(b.nrows));
  check(MPI_Scatterv(lengths.data(), row_counts.data(), row_displs.data(), MPI_INT, my_lengths.data(), b.nrows,
                     MPI_INT, 0, comm),
        "MPI_Scatterv(row lengths)");
  b.rowptr.assign(static_cast<size_t>(b.nrows) + 1, 0);
  for (int32_t i = 0; i < b.nrows; ++i) b.rowptr[i + 1] = b.rowptr[i] + my_lengths[i];
  b.colind.resize(static_cast<size_t>(b.rowptr[b.nrows]));
  b.values.resize(b.colind.size());
  const int my_nnz = b.rowptr[b.nrows];
  check(MPI_Scatterv(a.colind.data(), nz_counts.data(), nz_displs.data(), MPI_INT, b.colind.data(), my_nnz, MPI_INT, 0,
                     comm),
        "MPI_Scatterv(column indices)");
  check(MPI_Scatterv(a.values.data(), nz_counts.data(), nz_displs.data(), MPI_DOUBLE, b.values.data(), my_nnz,
                     MPI_DOUBLE, 0, comm),
        "MPI_Scatterv(values)");
  return b;
}

}  // namespace

RowBlock load_row_block(const std::string& arg, MPI_Comm comm) {
  static_assert(sizeof(int) == sizeof(int32_t), "row lengths and column indices travel as MPI_INT");
  int rank = 0, size = 1;
  check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  check(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  RowBlock rb;
  const bool file = ends_with(arg, ".mtx") || ends_with(arg, ".mtx.xz");
  if (!file) {
    // Generators are deterministic: every rank builds the same matrix and keeps its rows.
    BenchMatrix m = load_bench_matrix(arg);
    rb.name = m.name;
    rb.kind = m.kind;
    rb.n = m.a.nrows;
    rb.nnz = m.a.nnz();
    rb.first_row = first_row_of(rb.n, size, rank);
    rb.local = size == 1 ? std::move(m.a) : rows_of_matrix(m.a, rb.first_row, rows_of(rb.n, size, rank));
    return rb;
  }
  BenchMatrix m;
  std::string error;
  if (rank == 0) {
    try {
      m = load_bench_matrix(arg);
      if (m.a.nrows != m.a.ncols) error = arg + ": matrix is not square";
    } catch (const std::exception& e) {
      error = e.what();
      if (error.empty()) error = arg + ": cannot be read";
    }
  }
  error = broadcast(error, comm);
  if (!error.empty()) throw std::runtime_error(error);
  rb.name = broadcast(m.name, comm);
  rb.kind = broadcast(m.kind, comm);
  int64_t sizes[2] = {m.a.nrows, m.a.nnz()};
  check(MPI_Bcast(sizes, 2, MPI_INT64_T, 0, comm), "MPI_Bcast");
  rb.n = sizes[0];
  rb.nnz = sizes[1];
  rb.first_row = first_row_of(rb.n, size, rank);
  rb.local = size == 1 ? std::move(m.a) : scatter_rows(m.a, rb.n, comm);
  return rb;
}

}  // namespace gpuglu::bench
