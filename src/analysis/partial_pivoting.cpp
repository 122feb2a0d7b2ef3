#include "analysis/partial_pivoting.hpp"

#include <klu.h>

#include <cmath>
#include <string>

#include "gpuglu/status.hpp"

namespace gpuglu::analysis {

namespace {

// Owns KLU's objects so that every exit (including an Error) frees them.
struct KluObjects {
  klu_common common;
  klu_symbolic* symbolic = nullptr;
  klu_numeric* numeric = nullptr;
  KluObjects() { klu_defaults(&common); }
  ~KluObjects() {
    if (numeric) klu_free_numeric(&numeric, &common);
    if (symbolic) klu_free_symbolic(&symbolic, &common);
  }
  KluObjects(const KluObjects&) = delete;
  KluObjects& operator=(const KluObjects&) = delete;
};

[[noreturn]] void throw_klu_failure(const klu_common& c, const char* phase) {
  const std::string what = std::string("KLU's partial pivoting (") + phase + ") ";
  switch (c.status) {
    case KLU_OUT_OF_MEMORY: throw Error(Status::out_of_memory, what + "ran out of host memory");
    case KLU_TOO_LARGE: throw Error(Status::index_overflow, what + "overflowed its integer indices");
    default:
      throw Error(Status::invalid_input, what + "rejected the matrix (KLU status " + std::to_string(c.status) + ")");
  }
}

}  // namespace

PartialPivoting klu_partial_pivoting(const InputPattern& a, const ColumnPattern& cols, const double* complex_values) {
  const int32_t n = a.n;
  PartialPivoting out;
  if (n == 0) return out;
  // KLU takes int arrays; check_input() has kept nnz within int.
  static_assert(sizeof(int) == sizeof(int32_t), "KLU's int interface takes the analysis' 32-bit arrays");
  // KLU's complex values are (real, imaginary) pairs, the layout of std::complex<double>.
  const size_t width = complex_values ? 2 : 1;
  std::vector<double> values(cols.src.size() * width);
  for (size_t q = 0; q < cols.src.size(); ++q) {
    const auto src = static_cast<size_t>(cols.src[q]);
    if (complex_values) {
      values[2 * q] = complex_values[2 * src];
      values[2 * q + 1] = complex_values[2 * src + 1];
    } else {
      values[q] = a.values[src];
    }
  }
  int* colptr = const_cast<int*>(cols.colptr.data());  // KLU only reads them; its prototypes are not const
  int* rowind = const_cast<int*>(cols.rowind.data());

  KluObjects klu;
  klu.symbolic = klu_analyze(n, colptr, rowind, &klu.common);
  if (!klu.symbolic) throw_klu_failure(klu.common, "klu_analyze");
  // klu_factor would only call this "singular"; the rank says why.
  if (klu.symbolic->structural_rank >= 0 && klu.symbolic->structural_rank < n)
    throw Error(Status::structurally_singular, "the matrix is structurally singular: structural rank " +
                                                   std::to_string(klu.symbolic->structural_rank) + " < n = " +
                                                   std::to_string(n) + " (found by KLU's BTF)");
  klu.numeric = complex_values ? klu_z_factor(colptr, rowind, values.data(), klu.symbolic, &klu.common)
                               : klu_factor(colptr, rowind, values.data(), klu.symbolic, &klu.common);
  if (klu.common.status == KLU_SINGULAR) {
    const int col = klu.common.singular_col;  // a column of A (KLU maps it back through Q)
    throw Error(Status::numerically_singular,
                "the matrix is numerically singular: KLU's partial pivoting finds no nonzero pivot for column " +
                    std::to_string(col) + " of A (pivot step " + std::to_string(klu.common.numerical_rank) + " of " +
                    std::to_string(n) + ")");
  }
  if (!klu.numeric || klu.common.status != KLU_OK) throw_klu_failure(klu.common, "klu_factor");

  out.row_perm.assign(klu.numeric->Pnum, klu.numeric->Pnum + n);
  out.col_perm.assign(klu.symbolic->Q, klu.symbolic->Q + n);
  out.row_scale.assign(static_cast<size_t>(n), 1.0);
  // klu_factor leaves Rs in pivot order (it permutes the scale factors by Pnum at its end,
  // whatever klu.h's "Rs [i] is scale factor for row i" suggests): Rs[k] belongs to row
  // Pnum[k]. Rs is null when scaling is off (not KLU's default), and KLU sets 1 for a zero
  // row; the guard keeps a schedule's scales finite whatever KLU version runs.
  if (const double* rs = klu.numeric->Rs)
    for (int32_t k = 0; k < n; ++k)
      if (rs[k] > 0.0 && std::isfinite(rs[k])) out.row_scale[out.row_perm[k]] = 1.0 / rs[k];
  out.blocks = klu.symbolic->nblocks;
  out.off_diagonal_pivots = klu.common.noffdiag;
  return out;
}

}  // namespace gpuglu::analysis
