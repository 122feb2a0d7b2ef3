#include "analysis/symmetric_graph.hpp"

#include <omp.h>

#include <algorithm>
#include <limits>
#include <string>

#include "analysis/pipeline_steps.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu::analysis {

namespace {

// Below this many entries of B one thread builds the graph: a team costs more.
constexpr int64_t kParallelFrom = int64_t{1} << 15;

// The union of the sorted lists a and b without j, written to out (when given); returns its size.
int64_t merge_without(const int32_t* a, const int32_t* a_end, const int32_t* b, const int32_t* b_end, int32_t j,
                      int32_t* out) {
  int64_t k = 0;
  auto put = [&](int32_t v) {
    if (v == j) return;
    if (out) out[k] = v;
    ++k;
  };
  while (a != a_end && b != b_end) {
    if (*a < *b) put(*a++);
    else if (*b < *a) put(*b++);
    else put(*a++), ++b;
  }
  while (a != a_end) put(*a++);
  while (b != b_end) put(*b++);
  return k;
}

// 64-bit words mixed as in splitmix64: a fingerprint, not a cryptographic hash.
struct Fingerprint {
  uint64_t h = 0x9e3779b97f4a7c15ull;
  void add(uint64_t v) {
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
    h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
    h ^= h >> 31;
  }
  void add(const std::vector<int32_t>& v) {
    add(static_cast<uint64_t>(v.size()));
    size_t i = 0;
    for (; i + 1 < v.size(); i += 2)
      add(static_cast<uint64_t>(static_cast<uint32_t>(v[i])) | static_cast<uint64_t>(static_cast<uint32_t>(v[i + 1])) << 32);
    if (i < v.size()) add(static_cast<uint32_t>(v[i]));
  }
};

}  // namespace

SymmetricGraph symmetric_graph(const MatchedPattern& b, int threads) {
  const int32_t n = b.n;
  const int64_t nnz = b.colptr.empty() ? 0 : b.colptr[n];
  const int team = team_size(threads, nnz, kParallelFrom);
  // B^T by a counting sort: its columns (B's rows) come out ascending.
  std::vector<int32_t> tptr(static_cast<size_t>(n) + 1, 0), tind(static_cast<size_t>(nnz));
  for (int64_t p = 0; p < nnz; ++p) ++tptr[b.rowind[p] + 1];
  for (int32_t i = 0; i < n; ++i) tptr[i + 1] += tptr[i];
  {
    std::vector<int32_t> next(tptr.begin(), tptr.end() - 1);
    for (int32_t j = 0; j < n; ++j)
      for (int32_t p = b.colptr[j]; p < b.colptr[j + 1]; ++p) tind[next[b.rowind[p]]++] = j;
  }
  SymmetricGraph g;
  g.n = n;
  std::vector<int64_t> count(static_cast<size_t>(n) + 1, 0);
#pragma omp parallel for num_threads(team) schedule(static)
  for (int32_t j = 0; j < n; ++j)
    count[j + 1] = merge_without(b.rowind.data() + b.colptr[j], b.rowind.data() + b.colptr[j + 1],
                                 tind.data() + tptr[j], tind.data() + tptr[j + 1], j, nullptr);
  for (int32_t j = 0; j < n; ++j) count[j + 1] += count[j];
  if (count[n] > std::numeric_limits<int32_t>::max())
    throw Error(Status::index_overflow, "the graph of A + A^T has " + std::to_string(count[n]) +
                                            " edges, more than METIS's 32-bit indices hold");
  g.xadj.assign(count.begin(), count.end());
  g.adjncy.resize(static_cast<size_t>(count[n]));
#pragma omp parallel for num_threads(team) schedule(static)
  for (int32_t j = 0; j < n; ++j)
    merge_without(b.rowind.data() + b.colptr[j], b.rowind.data() + b.colptr[j + 1], tind.data() + tptr[j],
                  tind.data() + tptr[j + 1], j, g.adjncy.data() + g.xadj[j]);
  return g;
}

uint64_t graph_fingerprint(const SymmetricGraph& g) {
  Fingerprint f;
  f.add(static_cast<uint64_t>(g.n));
  f.add(g.xadj);
  f.add(g.adjncy);
  return f.h;
}

uint64_t pattern_fingerprint(const MatchedPattern& b) {
  Fingerprint f;
  f.add(static_cast<uint64_t>(b.n) | uint64_t{1} << 63);  // never a graph's
  f.add(b.colptr);
  f.add(b.rowind);
  return f.h;
}

}  // namespace gpuglu::analysis
