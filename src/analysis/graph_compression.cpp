#include "analysis/graph_compression.hpp"

#include <omp.h>

#include <algorithm>
#include <numeric>

#include "analysis/pipeline_steps.hpp"

namespace gpuglu::analysis {

namespace {

// N[v] == N[w] (closed neighbourhoods) for adjacent v != w with equal degrees: their sorted
// lists agree once each skips the other.
bool same_closed_neighbourhood(const SymmetricGraph& g, int32_t v, int32_t w) {
  int32_t i = g.xadj[v], j = g.xadj[w];
  const int32_t ie = g.xadj[v + 1], je = g.xadj[w + 1];
  bool v_sees_w = false;
  while (true) {
    while (i < ie && g.adjncy[i] == w) ++i, v_sees_w = true;
    while (j < je && g.adjncy[j] == v) ++j;
    if (i == ie || j == je) return v_sees_w && i == ie && j == je;
    if (g.adjncy[i] != g.adjncy[j]) return false;
    ++i, ++j;
  }
}

}  // namespace

bool compress_indistinguishable(const SymmetricGraph& g, int threads, CompressedGraph& out) {
  const int32_t n = g.n;
  if (n < 2 || g.edges() == 0) return false;
  const int team = team_size(threads, n, 1 << 14);
  // A key equal for indistinguishable vertices: the sum of the closed neighbourhood.
  std::vector<uint64_t> key(static_cast<size_t>(n));
#pragma omp parallel for num_threads(team) schedule(static)
  for (int32_t v = 0; v < n; ++v) {
    uint64_t k = static_cast<uint64_t>(v);
    for (int32_t e = g.xadj[v]; e < g.xadj[v + 1]; ++e) k += static_cast<uint64_t>(g.adjncy[e]);
    key[v] = k;
  }
  std::vector<int32_t> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
    const int32_t da = g.xadj[a + 1] - g.xadj[a], db = g.xadj[b + 1] - g.xadj[b];
    if (key[a] != key[b]) return key[a] < key[b];
    if (da != db) return da < db;
    return a < b;
  });
  // Within a run of equal keys and degrees, each vertex joins the first earlier one it is
  // indistinguishable from (runs are short: a node's unknowns, and collisions).
  std::vector<int32_t> leader(static_cast<size_t>(n));
  std::iota(leader.begin(), leader.end(), 0);
  for (int32_t s = 0; s < n;) {
    int32_t e = s + 1;
    const int32_t ds = g.xadj[order[s] + 1] - g.xadj[order[s]];
    while (e < n && key[order[e]] == key[order[s]] && g.xadj[order[e] + 1] - g.xadj[order[e]] == ds) ++e;
    for (int32_t a = s + 1; a < e; ++a)
      for (int32_t b = s; b < a; ++b) {
        const int32_t vb = order[b];
        if (leader[vb] != vb) continue;  // compare with the groups' first members only
        if (same_closed_neighbourhood(g, vb, order[a])) {
          leader[order[a]] = vb;
          break;
        }
      }
    s = e;
  }
  // Groups numbered by their smallest member (the run is sorted by vertex within a key, so
  // a leader is its group's smallest vertex).
  std::vector<int32_t> group(static_cast<size_t>(n), -1);
  int32_t groups = 0;
  for (int32_t v = 0; v < n; ++v)
    if (leader[v] == v) group[v] = groups++;
  if (groups >= kCompressBelow * n) return false;
  for (int32_t v = 0; v < n; ++v) group[v] = group[leader[v]];
  CompressedGraph c;
  c.weight.assign(static_cast<size_t>(groups), 0);
  for (int32_t v = 0; v < n; ++v) ++c.weight[group[v]];
  c.ptr.assign(static_cast<size_t>(groups) + 1, 0);
  for (int32_t k = 0; k < groups; ++k) c.ptr[k + 1] = c.ptr[k] + c.weight[k];
  c.members.resize(static_cast<size_t>(n));
  {
    std::vector<int32_t> fill(c.ptr.begin(), c.ptr.end() - 1);
    for (int32_t v = 0; v < n; ++v) c.members[fill[group[v]]++] = v;  // ascending
  }
  // The quotient's edges: a group's first member's neighbours' groups, itself left out.
  c.g.n = groups;
  c.g.xadj.assign(static_cast<size_t>(groups) + 1, 0);
  std::vector<std::vector<int32_t>> adj(static_cast<size_t>(groups));
#pragma omp parallel for num_threads(team) schedule(dynamic, 256)
  for (int32_t k = 0; k < groups; ++k) {
    const int32_t v = c.members[c.ptr[k]];
    std::vector<int32_t>& a = adj[k];
    for (int32_t e = g.xadj[v]; e < g.xadj[v + 1]; ++e)
      if (group[g.adjncy[e]] != k) a.push_back(group[g.adjncy[e]]);
    std::sort(a.begin(), a.end());
    a.erase(std::unique(a.begin(), a.end()), a.end());
  }
  for (int32_t k = 0; k < groups; ++k) c.g.xadj[k + 1] = c.g.xadj[k] + static_cast<int32_t>(adj[k].size());
  c.g.adjncy.resize(static_cast<size_t>(c.g.xadj[groups]));
  for (int32_t k = 0; k < groups; ++k) std::copy(adj[k].begin(), adj[k].end(), c.g.adjncy.begin() + c.g.xadj[k]);
  out = std::move(c);
  return true;
}

std::vector<int32_t> expand_ordering(const CompressedGraph& c, const std::vector<int32_t>& qc) {
  std::vector<int32_t> q;
  q.reserve(c.members.size());
  for (const int32_t k : qc)
    for (int32_t p = c.ptr[k]; p < c.ptr[k + 1]; ++p) q.push_back(c.members[p]);
  return q;
}

}  // namespace gpuglu::analysis
