#include "analysis/nested_dissection.hpp"

#include <metis.h>
#include <omp.h>

#include <exception>
#include <memory>
#include <mutex>
#include <string>

#include "analysis/metis_random.hpp"
#include "analysis/pipeline_steps.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu::analysis {

namespace {

static_assert(sizeof(idx_t) == sizeof(int32_t), "the graph's arrays are handed to METIS as idx_t");

// A part of the graph: its induced subgraph in local numbering, and each local vertex's
// number in the whole graph. The whole graph is read where it lies (own arrays empty).
struct Part {
  int32_t n = 0;
  const idx_t* xadj = nullptr;
  const idx_t* adjncy = nullptr;
  const idx_t* vwgt = nullptr;  // null: every vertex weighs 1
  std::vector<idx_t> own_xadj, own_adjncy, own_vwgt;
  std::vector<int32_t> global;  // empty: the identity
  int32_t id(int32_t v) const { return global.empty() ? v : global[v]; }
};

void check_metis(int status, const char* call) {
  if (status == METIS_OK) return;
  if (status == METIS_ERROR_MEMORY) throw Error(Status::out_of_memory, std::string("METIS ran out of memory in ") + call);
  throw Error(Status::invalid_input, std::string(call) + " failed (status " + std::to_string(status) + ")");
}

void metis_options(idx_t* options) {
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_NUMBERING] = 0;
}

// Whether a part of n vertices and `edges` adjacency entries is split (nested_dissection.hpp).
bool splits(int32_t n, int64_t edges) { return edges > 0 && (n >= kDissectFrom || edges >= kDissectFromEdges); }

// The part ordered by METIS_NodeND into out[0 .. n).
void order_leaf(const Part& p, int32_t* out) {
  if (p.n == 0) return;
  if (p.xadj[p.n] == 0) {  // no edges: nothing to order, and METIS dislikes empty graphs
    for (int32_t v = 0; v < p.n; ++v) out[v] = p.id(v);
    return;
  }
  idx_t nv = p.n;
  idx_t options[METIS_NOPTIONS];
  metis_options(options);
  std::vector<idx_t> perm(static_cast<size_t>(p.n)), iperm(static_cast<size_t>(p.n));
  check_metis(METIS_NodeND(&nv, const_cast<idx_t*>(p.xadj), const_cast<idx_t*>(p.adjncy), const_cast<idx_t*>(p.vwgt),
                           options, perm.data(), iperm.data()),
              "METIS_NodeND");
  for (int32_t k = 0; k < p.n; ++k) out[k] = p.id(perm[k]);  // METIS' perm is new -> old
}

// The subgraph that side `side` (0 or 1) of the separation induces: the edges to the
// separator go, and none joins the two sides.
std::unique_ptr<Part> induced(const Part& p, const std::vector<idx_t>& where, idx_t side) {
  auto s = std::make_unique<Part>();
  std::vector<int32_t> local(static_cast<size_t>(p.n), -1);
  for (int32_t v = 0; v < p.n; ++v)
    if (where[v] == side) local[v] = s->n++;
  s->global.resize(static_cast<size_t>(s->n));
  s->own_xadj.assign(static_cast<size_t>(s->n) + 1, 0);
  for (int32_t v = 0; v < p.n; ++v) {
    if (local[v] < 0) continue;
    s->global[local[v]] = p.id(v);
    for (idx_t e = p.xadj[v]; e < p.xadj[v + 1]; ++e)
      if (where[p.adjncy[e]] == side) ++s->own_xadj[local[v] + 1];
  }
  for (int32_t i = 0; i < s->n; ++i) s->own_xadj[i + 1] += s->own_xadj[i];
  s->own_adjncy.resize(static_cast<size_t>(s->own_xadj[s->n]));
  for (int32_t v = 0, k = 0; v < p.n; ++v) {
    if (local[v] < 0) continue;
    for (idx_t e = p.xadj[v]; e < p.xadj[v + 1]; ++e)
      if (where[p.adjncy[e]] == side) s->own_adjncy[k++] = local[p.adjncy[e]];
  }
  s->xadj = s->own_xadj.data();
  s->adjncy = s->own_adjncy.data();
  if (p.vwgt) {
    s->own_vwgt.resize(static_cast<size_t>(s->n));
    for (int32_t v = 0; v < p.n; ++v)
      if (local[v] >= 0) s->own_vwgt[local[v]] = p.vwgt[v];
    s->vwgt = s->own_vwgt.data();
  }
  return s;
}

// One dissection: the tasks' first failure, rethrown once every task has ended (an
// exception must not leave an OpenMP task).
class Dissection {
 public:
  // Orders p into out[0 .. p.n): side 0, then side 1 (the two as tasks), then the separator.
  void dissect(std::unique_ptr<Part> p, int32_t* out, int depth) {
    if (failed()) return;
    try {
      split(std::move(p), out, depth);
    } catch (...) {
      std::lock_guard<std::mutex> lock(m_);
      if (!error_) error_ = std::current_exception();
    }
  }
  void rethrow() const {
    if (error_) std::rethrow_exception(error_);
  }

 private:
  bool failed() {
    std::lock_guard<std::mutex> lock(m_);
    return error_ != nullptr;
  }

  void split(std::unique_ptr<Part> p, int32_t* out, int depth) {
    if (!splits(p->n, p->xadj[p->n]) || depth >= kMaxDepth) {
      order_leaf(*p, out);
      return;
    }
    idx_t nv = p->n, separator = 0;
    idx_t options[METIS_NOPTIONS];
    metis_options(options);
    std::vector<idx_t> where(static_cast<size_t>(p->n));
    check_metis(METIS_ComputeVertexSeparator(&nv, const_cast<idx_t*>(p->xadj), const_cast<idx_t*>(p->adjncy),
                                             const_cast<idx_t*>(p->vwgt), options, &separator, where.data()),
                "METIS_ComputeVertexSeparator");
    int32_t sizes[3] = {0, 0, 0};
    for (idx_t w : where) ++sizes[w];
    if (sizes[0] == 0 || sizes[1] == 0) {  // no split found: METIS orders the part whole
      order_leaf(*p, out);
      return;
    }
    for (int32_t v = 0, k = sizes[0] + sizes[1]; v < p->n; ++v)
      if (where[v] == 2) out[k++] = p->id(v);
    std::unique_ptr<Part> left = induced(*p, where, 0);
    std::unique_ptr<Part> right = induced(*p, where, 1);
    p.reset();
    std::vector<idx_t>().swap(where);
    // The task owns its half from here (a raw pointer crosses into it: firstprivate copies).
    Part* l = left.release();
#pragma omp task firstprivate(l, out, depth)
    dissect(std::unique_ptr<Part>(l), out, depth + 1);
    dissect(std::move(right), out + sizes[0], depth + 1);
#pragma omp taskwait
  }

  std::mutex m_;
  std::exception_ptr error_;
};

}  // namespace

std::vector<int32_t> nested_dissection(const SymmetricGraph& g, int threads, const std::vector<int32_t>* weight) {
  std::vector<int32_t> q(static_cast<size_t>(g.n));
  if (g.n == 0) return q;
  auto whole = std::make_unique<Part>();
  whole->n = g.n;
  whole->xadj = g.xadj.data();
  whole->adjncy = g.adjncy.data();
  if (weight) whole->vwgt = weight->data();
  Dissection d;
  // Only graphs that split take a team, and only where METIS's calls draw from their own
  // thread's generator (metis_random.hpp); the tree, not the team, decides the ordering.
  const int team = metis_draws_per_thread() && splits(g.n, g.edges()) ? threads_of(threads) : 1;
#pragma omp parallel num_threads(team)
#pragma omp single
  d.dissect(std::move(whole), q.data(), 0);
  d.rethrow();
  return q;
}

}  // namespace gpuglu::analysis
