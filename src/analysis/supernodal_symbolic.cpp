#include "analysis/supernodal_symbolic.hpp"

#include <cholmod.h>
#include <omp.h>

#include <algorithm>
#include <memory>
#include <string>

#include "analysis/pipeline_steps.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu::analysis {

namespace {

// CHOLMOD's workspace and its release, whatever path leaves the analysis.
struct CholmodSession {
  cholmod_common c;
  cholmod_sparse* a = nullptr;
  cholmod_factor* l = nullptr;
  CholmodSession() { cholmod_l_start(&c); }
  ~CholmodSession() {
    if (l) cholmod_l_free_factor(&l, &c);
    if (a) cholmod_l_free_sparse(&a, &c);
    cholmod_l_finish(&c);
  }
  CholmodSession(const CholmodSession&) = delete;
  CholmodSession& operator=(const CholmodSession&) = delete;

  void check(const char* what) const {
    if (c.status == CHOLMOD_OUT_OF_MEMORY)
      throw Error(Status::out_of_memory, std::string("supernodal analysis: CHOLMOD ran out of memory in ") + what);
    if (c.status < CHOLMOD_OK)
      throw Error(Status::invalid_input,
                  std::string("supernodal analysis: CHOLMOD failed in ") + what + " (status " + std::to_string(c.status) + ")");
  }
};

// The upper triangle of the pattern of B + B^T (diagonal included), CSC, sorted, in
// CHOLMOD's storage (CHOLMOD reads a symmetric matrix's upper triangle): each column is the
// graph's neighbours below it, which come first in its ascending list, then the diagonal.
void fill_symmetrized_upper(const SymmetricGraph& g, int threads, CholmodSession& cm) {
  const int32_t n = g.n;
  std::vector<int64_t> colptr(static_cast<size_t>(n) + 1, 0);
  for (int32_t j = 0; j < n; ++j) {
    const int32_t* begin = g.adjncy.data() + g.xadj[j];
    const int32_t* end = g.adjncy.data() + g.xadj[j + 1];
    colptr[j + 1] = colptr[j] + (std::lower_bound(begin, end, j) - begin) + 1;
  }
  cm.a = cholmod_l_allocate_sparse(n, n, std::max<int64_t>(colptr[n], 1), /*sorted=*/1, /*packed=*/1, /*stype=*/1,
                                   CHOLMOD_PATTERN, &cm.c);
  cm.check("allocating C + C^T");
  auto* ap = static_cast<SuiteSparse_long*>(cm.a->p);
  auto* ai = static_cast<SuiteSparse_long*>(cm.a->i);
  const int team = team_size(threads, colptr[n], int64_t{1} << 16);
#pragma omp parallel for num_threads(team) schedule(static)
  for (int32_t j = 0; j < n; ++j) {
    ap[j] = colptr[j];
    SuiteSparse_long* out = ai + colptr[j];
    for (int32_t e = g.xadj[j]; e < g.xadj[j + 1] && g.adjncy[e] < j; ++e) *out++ = g.adjncy[e];
    *out = j;
  }
  ap[n] = colptr[n];
}

}  // namespace

void build_supernode_levels(Supernodes& sn, int32_t alone_last) {
  std::vector<int32_t> level(static_cast<size_t>(sn.count), 0);
  int32_t levels = sn.count > 0 ? 1 : 0;
  // Postorder: every child precedes its parent, so one ascending pass settles the levels.
  for (int32_t s = 0; s < sn.count; ++s) {
    const int32_t p = sn.parent[s];
    if (p >= 0) level[p] = std::max(level[p], level[s] + 1);
    if (s != alone_last) levels = std::max(levels, level[s] + 1);
  }
  if (alone_last >= 0) level[alone_last] = sn.count > 1 ? levels++ : 0;
  sn.level_ptr.assign(static_cast<size_t>(levels) + 1, 0);
  for (int32_t s = 0; s < sn.count; ++s) ++sn.level_ptr[level[s] + 1];
  for (int32_t l = 0; l < levels; ++l) sn.level_ptr[l + 1] += sn.level_ptr[l];
  sn.level_nodes.resize(static_cast<size_t>(sn.count));
  std::vector<int64_t> next(sn.level_ptr.begin(), sn.level_ptr.end() - 1);
  for (int32_t s = 0; s < sn.count; ++s) sn.level_nodes[next[level[s]]++] = s;
}

SupernodalPattern supernodal_symbolic(const SymmetricGraph& g, const std::vector<int32_t>& q, int threads,
                                      bool with_upper, bool postorder, Amalgamation amalgamation) {
  const int32_t n = g.n;
  SupernodalPattern out;
  Supernodes& sn = out.supernodes;
  if (n == 0) {
    sn.first = {0};
    sn.rows_ptr = {0};
    sn.l_ptr = {0};
    sn.u_ptr = {0};
    sn.level_ptr = {0};
    return out;
  }
  Stopwatch clock;
  CholmodSession cm;
  fill_symmetrized_upper(g, threads, cm);
  out.input_ms = clock.lap_ms();
  cm.c.nmethods = 1;
  cm.c.method[0].ordering = CHOLMOD_GIVEN;
  cm.c.postorder = postorder ? 1 : 0;
  cm.c.supernodal = CHOLMOD_SUPERNODAL;
  if (amalgamation == Amalgamation::cpu)
    for (int i = 0; i < 3; ++i) cm.c.zrelax[i] = kCpuZeroRelax[i];
  std::vector<SuiteSparse_long> perm(q.begin(), q.end());
  cm.l = cholmod_l_analyze_p(cm.a, perm.data(), nullptr, 0, &cm.c);
  cm.check("its supernodal analysis");
  out.cholmod_ms = clock.lap_ms();
  if (!cm.l || !cm.l->is_super)
    throw Error(Status::invalid_input, "supernodal analysis: CHOLMOD returned no supernodal factor");

  const auto* lperm = static_cast<const SuiteSparse_long*>(cm.l->Perm);
  const auto* super = static_cast<const SuiteSparse_long*>(cm.l->super);
  const auto* pi = static_cast<const SuiteSparse_long*>(cm.l->pi);
  const auto* ls = static_cast<const SuiteSparse_long*>(cm.l->s);
  const auto* colcount = static_cast<const SuiteSparse_long*>(cm.l->ColCount);
  out.q.assign(lperm, lperm + n);

  sn.count = static_cast<int32_t>(cm.l->nsuper);
  sn.first.assign(super, super + sn.count + 1);
  sn.rows_ptr.assign(pi, pi + sn.count + 1);
  sn.rows.assign(ls, ls + pi[sn.count]);
  int64_t lower_entries = 0;
  for (int32_t s = 0; s < sn.count; ++s) {
    const int32_t ns = sn.cols(s);
    const int64_t nr = sn.nrows(s);
    std::sort(sn.rows.begin() + sn.rows_ptr[s], sn.rows.begin() + sn.rows_ptr[s + 1]);
    lower_entries += static_cast<int64_t>(ns) * (ns + 1) / 2 + (nr - ns) * ns;
  }
  lay_out_panels(sn, with_upper);
  int64_t exact = 0;
  for (int32_t j = 0; j < n; ++j) exact += colcount[j];
  // Both triangles hold the amalgamation's zeros (the LU's; the LDL^T keeps one).
  sn.explicit_zeros = std::max<int64_t>(0, (with_upper ? 2 : 1) * (lower_entries - exact));
  build_supernode_levels(sn);
  out.panels_ms = clock.lap_ms();
  return out;
}

void lay_out_panels(Supernodes& sn, bool with_upper) {
  sn.of_col.resize(static_cast<size_t>(sn.first.back()));
  sn.parent.assign(static_cast<size_t>(sn.count), -1);
  sn.l_ptr.assign(static_cast<size_t>(sn.count) + 1, 0);
  sn.u_ptr.assign(static_cast<size_t>(sn.count) + 1, 0);
  for (int32_t s = 0; s < sn.count; ++s) {
    for (int32_t j = sn.first[s]; j < sn.first[s + 1]; ++j) sn.of_col[j] = s;
    sn.l_ptr[s + 1] = sn.l_ptr[s] + sn.nrows(s) * sn.cols(s);
  }
  for (int32_t s = 0; s < sn.count; ++s) {
    const int32_t ns = sn.cols(s);
    const int64_t nr = sn.nrows(s);
    if (nr > ns) sn.parent[s] = sn.of_col[sn.rows[sn.rows_ptr[s] + ns]];
    sn.u_ptr[s + 1] = sn.u_ptr[s] + (with_upper ? (nr - ns) * ns : 0);
  }
  for (int32_t s = 0; s <= sn.count; ++s) sn.u_ptr[s] += sn.l_ptr[sn.count];
  sn.values = sn.u_ptr[sn.count];
}

}  // namespace gpuglu::analysis
