#include "analysis/ordering.hpp"

#include <amd.h>
#include <colamd.h>

#include <algorithm>
#include <numeric>
#include <string>

#include "analysis/graph_compression.hpp"
#include "analysis/nested_dissection.hpp"
#include "analysis/ordering_cache.hpp"
#include "analysis/symmetric_graph.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu::analysis {

namespace {

std::vector<int32_t> identity(int32_t n) {
  std::vector<int32_t> q(static_cast<size_t>(n));
  std::iota(q.begin(), q.end(), 0);
  return q;
}

// flops (may be null): AMD's count for the LU of B + B^T's pattern in its order.
std::vector<int32_t> amd_ordering(const MatchedPattern& b, double* flops = nullptr) {
  std::vector<int32_t> q(static_cast<size_t>(b.n));
  double control[AMD_CONTROL], info[AMD_INFO];
  amd_defaults(control);
  const int status = amd_order(b.n, b.colptr.data(), b.rowind.data(), q.data(), control, info);
  if (status == AMD_OUT_OF_MEMORY) throw Error(Status::out_of_memory, "AMD ran out of memory");
  if (status < AMD_OK) throw Error(Status::invalid_input, "AMD rejected the matrix (status " + std::to_string(status) + ")");
  if (flops) *flops = info[AMD_NDIV] + 2.0 * info[AMD_NMULTSUBS_LU];
  return q;
}

std::vector<int32_t> colamd_ordering(const MatchedPattern& b) {
  const int32_t n = b.n;
  const int32_t nnz = b.colptr[n];
  const size_t alen = colamd_recommended(nnz, n, n);
  if (alen == 0) throw Error(Status::index_overflow, "COLAMD: the matrix is too large for its workspace");
  std::vector<int32_t> work(alen);
  std::copy(b.rowind.begin(), b.rowind.end(), work.begin());
  std::vector<int32_t> p(b.colptr.begin(), b.colptr.end());  // becomes the column ordering
  double knobs[COLAMD_KNOBS];
  int stats[COLAMD_STATS];
  colamd_set_defaults(knobs);
  if (!colamd(n, n, static_cast<int>(alen), work.data(), p.data(), knobs, stats))
    throw Error(Status::invalid_input, "COLAMD failed (status " + std::to_string(stats[COLAMD_STATUS]) + ")");
  p.resize(static_cast<size_t>(n));
  return p;
}

// Nested dissection of g (B + B^T's graph), its top levels split by METIS's separators and
// ordered as parallel tasks (nested_dissection.hpp), on the quotient graph of its
// indistinguishable vertices where that is much smaller (graph_compression.hpp).
std::vector<int32_t> metis_ordering(const SymmetricGraph& g, int threads) {
  if (g.edges() == 0) return identity(g.n);  // diagonal: nothing to order
  CompressedGraph c;
  if (compress_indistinguishable(g, threads, c)) return expand_ordering(c, nested_dissection(c.g, threads, &c.weight));
  return nested_dissection(g, threads);
}

void check_permutation(const int32_t* q, int32_t n) {
  std::vector<char> seen(static_cast<size_t>(n), 0);
  for (int32_t k = 0; k < n; ++k) {
    if (q[k] < 0 || q[k] >= n || seen[q[k]])
      throw Error(Status::invalid_input, "the given ordering is not a permutation of 0.." + std::to_string(n - 1) +
                                             ": entry " + std::to_string(k) + " is " + std::to_string(q[k]));
    seen[q[k]] = 1;
  }
}

}  // namespace

MatchedPattern matched_pattern(const ColumnPattern& a_cols, int32_t n, const std::vector<int32_t>& row_of_col) {
  std::vector<int32_t> new_row(static_cast<size_t>(n));
  for (int32_t k = 0; k < n; ++k) new_row[row_of_col[k]] = k;
  MatchedPattern b;
  b.n = n;
  b.colptr = a_cols.colptr;
  // No matching (ILU, -mat_gpuglu_matching 0): the rows are A's, already sorted.
  bool identity = true;
  for (int32_t k = 0; k < n && identity; ++k) identity = row_of_col[k] == k;
  if (identity) {
    b.rowind = a_cols.rowind;
    return b;
  }
  b.rowind.resize(a_cols.rowind.size());
  for (int32_t j = 0; j < n; ++j) {
    for (int32_t p = a_cols.colptr[j]; p < a_cols.colptr[j + 1]; ++p) b.rowind[p] = new_row[a_cols.rowind[p]];
    std::sort(b.rowind.begin() + a_cols.colptr[j], b.rowind.begin() + a_cols.colptr[j + 1]);
  }
  return b;
}

Ordering resolve_ordering(Ordering requested, int32_t n, bool tree_engine) {
  if (requested != Ordering::automatic) return requested;
  return tree_engine && n >= kMetisFromRows ? Ordering::metis : Ordering::amd;
}

std::vector<int32_t> fill_reducing_ordering(const MatchedPattern& b, Ordering ordering, const int32_t* given_perm,
                                            const OrderingWork& work) {
  const int32_t n = b.n;
  if (n == 0) return {};
  // What is ordered decides the result: METIS's graph, or B's pattern for AMD and COLAMD.
  auto cached = [&](Ordering method, auto&& fingerprint, auto&& compute) {
    return work.cache ? cached_ordering(method, fingerprint(), n, compute) : compute();
  };
  auto pattern = [&] { return pattern_fingerprint(b); };
  if (work.used) *work.used = ordering;
  auto tell = [&](double flops) {
    if (work.amd_counted) work.amd_counted(flops);
  };
  if (ordering == Ordering::metis && work.amd_if_small) {
    double flops = 0.0;
    std::vector<int32_t> q = amd_ordering(b, &flops);
    tell(flops);
    if (flops < kAmdKeepFlops) {
      if (work.used) *work.used = Ordering::amd;
      return q;
    }
  } else if (ordering != Ordering::amd && ordering != Ordering::automatic) {
    tell(-1.0);
  }
  switch (ordering) {
    case Ordering::automatic:  // callers resolve it first (resolve_ordering)
    case Ordering::amd: {
      double flops = -1.0;  // stays unknown where the cache answers
      std::vector<int32_t> q = cached(Ordering::amd, pattern, [&] { return amd_ordering(b, &flops); });
      tell(flops);
      return q;
    }
    case Ordering::colamd: return cached(Ordering::colamd, pattern, [&] { return colamd_ordering(b); });
    case Ordering::metis: {
      SymmetricGraph built;
      const SymmetricGraph& g = work.graph ? *work.graph : (built = symmetric_graph(b, work.threads));
      return cached(Ordering::metis, [&] { return graph_fingerprint(g); },
                    [&] { return metis_ordering(g, work.threads); });
    }
    case Ordering::natural: return identity(n);
    case Ordering::given:
      if (!given_perm) throw Error(Status::invalid_input, "ordering 'given' needs a permutation, but none was passed");
      check_permutation(given_perm, n);
      return std::vector<int32_t>(given_perm, given_perm + n);
  }
  throw Error(Status::unsupported, "unknown ordering");
}

}  // namespace gpuglu::analysis
