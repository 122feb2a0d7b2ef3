#pragma once
// The CPU reference of the supernodal LU (include/gpuglu/supernodes.hpp): the oracle of the
// CUDA supernodal engine and the CPU backend of LuEngine::supernodal.
#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "core/numeric_types.hpp"
#include "cpu/team_rule.hpp"
#include "gpuglu/schedule.hpp"

namespace gpuglu::reference {

// Partial pivoting inside supernodes (core/supernode_pivoting.hpp): the supernodes with
// pivoted[s] != 0 search their diagonal blocks for their pivots; order (n entries, or nullptr
// when pivoted is) receives every supernode's row order, the identity where it is not
// searched; failed (count entries, may be nullptr) gets 1 where a supernode's panel LU failed,
// 0 elsewhere.
struct RowPivoting {
  const int8_t* pivoted = nullptr;
  int32_t* order = nullptr;
  int8_t* failed = nullptr;
};

// Factors the panels in place (they hold C's values, scattered, the diagonal shift added),
// level by level of the supernodal tree: each supernode's panel LU, then its Schur update
// of its ancestors. threads: OpenMP threads over a level's supernodes (0: OpenMP's default).
// A Schur schedule's last supernode (Schedule::schur_supernode) is left unfactored: it ends
// up holding the Schur complement of C.
NumericStats factor_supernodal(const Schedule& s, double* panels, const PivotRule& rule, int32_t threads,
                               RowPivoting pivoting = {});

// One supernode's statistics merged into a factorization's (in supernode order): the
// smallest failing column wins, as a sequential factorization would stop there.
void merge_node_stats(NumericStats& into, const NumericStats& from);

// What factoring one supernode gave: its statistics, and whether it failed (then it updates
// nothing).
struct NodeOutcome {
  NumericStats stats;
  bool failed = false;
};

// The position map of a Schur update's target supernode (the header's target rule), one
// target at a time: point(t) maps t's rows to their positions among them in pos (n entries,
// -1 elsewhere), unmapping the target before; the destructor leaves pos all -1 again.
class TargetRows {
 public:
  TargetRows(const Supernodes& sn, std::vector<int64_t>& pos) : sn_(sn), pos_(pos) {}
  ~TargetRows() { unmap(); }
  TargetRows(const TargetRows&) = delete;
  TargetRows& operator=(const TargetRows&) = delete;
  void point(int32_t t) {
    if (t == mapped_) return;
    unmap();
    for (int64_t p = sn_.rows_ptr[t]; p < sn_.rows_ptr[t + 1]; ++p) pos_[sn_.rows[p]] = p - sn_.rows_ptr[t];
    mapped_ = t;
  }

 private:
  void unmap() {
    if (mapped_ >= 0)
      for (int64_t p = sn_.rows_ptr[mapped_]; p < sn_.rows_ptr[mapped_ + 1]; ++p) pos_[sn_.rows[p]] = -1;
    mapped_ = -1;
  }
  const Supernodes& sn_;
  std::vector<int64_t>& pos_;
  int32_t mapped_ = -1;
};

// One supernode's ancestor updates, rows of its L21 [0, nb) in all, as rows(pos, b_begin,
// b_end): on the calling thread (scratch[thread]), or, with inner > 1 and at least
// kTeamMinEntries multiply-adds (entries), by inner threads in chunks of rows dealt out as
// threads free up (row b costs nb - b entries), each with its own position map (scratch[t]:
// n entries of -1, made on first use, restored by rows).
// chunk: the rows a thread takes at a time (their bounds are multiples of it, whatever the team).
constexpr int64_t kUpdateRowChunk = 8;
template <class Rows>
void update_rows_in_team(int64_t nb, int64_t entries, int inner, int thread, std::vector<std::vector<int64_t>>& scratch,
                         size_t n, const Rows& rows, int64_t chunk = kUpdateRowChunk) {
  auto run = [&](int me, int64_t b_begin, int64_t b_end) {
    std::vector<int64_t>& pos = scratch[static_cast<size_t>(me)];
    if (pos.empty()) pos.assign(n, -1);
    rows(pos, b_begin, b_end);
  };
  if (!inner_team_pays(inner, entries)) {
    run(thread, 0, nb);
    return;
  }
#pragma omp parallel for num_threads(inner) schedule(dynamic, 1)
  for (int64_t b = 0; b < nb; b += chunk) run(omp_get_thread_num(), b, std::min(nb, b + chunk));
}

// f(c0, c1) over [0, n) in pieces of kPiece columns (the BLAS calls of a wide supernode's own
// updates, cpu/supernodal_blas.hpp), by inner threads where entries (the multiply-adds of all
// of them) pay a team: the pieces' bounds do not depend on the team.
template <class F>
void over_column_pieces(int64_t n, int inner, int64_t entries, const F& f) {
  constexpr int64_t kPiece = 64;
  if (!inner_team_pays(inner, entries)) {
    for (int64_t c = 0; c < n; c += kPiece) f(c, std::min(n, c + kPiece));
    return;
  }
#pragma omp parallel for num_threads(inner) schedule(dynamic, 1)
  for (int64_t c = 0; c < n; c += kPiece) f(c, std::min(n, c + kPiece));
}

// About the flops of level_nodes[begin, end): each supernode's panel (c columns, r rows: r c^2)
// and its Schur complement ((r - c)^2 c), multiply-adds counted twice; for the team rule.
inline double level_flops(const Supernodes& sn, int64_t begin, int64_t end) {
  double flops = 0.0;
  for (int64_t i = begin; i < end; ++i) {
    const int32_t s = sn.level_nodes[i];
    const double c = sn.cols(s), r = static_cast<double>(sn.nrows(s));
    flops += 2.0 * (r * c * c + (r - c) * (r - c) * c);
  }
  return flops;
}

// *target -= v, atomically only where shared: supernodes of one level that run at once may
// reach the same ancestor entries, but a lock-prefixed update costs several times the
// multiply-adds that a small supernode spends on the entry, so a level that runs its
// supernodes one after another (factor_by_levels' shared = false) subtracts plainly.
inline void subtract_from(double* target, double v, bool shared) {
  if (shared) {
#pragma omp atomic
    *target -= v;
  } else {
    *target -= v;
  }
}

// f(atomic) with atomic a compile-time std::true_type or std::false_type as shared says, so
// that a loop of subtract_from(..., atomic) decides once, not per entry.
template <class F>
void with_sharing(bool shared, const F& f) {
  if (shared)
    f(std::true_type{});
  else
    f(std::false_type{});
}

// The level loop both supernodal engines run (LU and LDL^T): per level of the supernodal tree,
// OpenMP over its supernodes (team threads), each factored by factor(s, inner) -> NodeOutcome
// and, unless it failed, its Schur complement sent to its ancestors by update(s, thread,
// inner, shared) (thread: the OpenMP thread, for its scratch; shared: other supernodes of the
// level run at the same time, subtract_from). A failed supernode skips its update and
// the others go on, as on the GPU, so that both report the smallest failing column; merged in
// supernode order. With inner_team, a level narrower than the team (the tree's top, where a
// 3-D problem's separators hold most of the flops) runs its supernodes one after another,
// each with the whole team inside it (inner = team); otherwise inner is 1. Inner loops split
// independent entries only, so that the factor is bitwise the same for any team.
template <class Factor, class Update>
NumericStats factor_by_levels(const Supernodes& sn, int team, const Factor& factor, const Update& update,
                              bool inner_team = false) {
  NumericStats total;
  for (int32_t level = 0; level < sn.num_levels(); ++level) {
    const int64_t begin = sn.level_ptr[level];
    const int64_t end = sn.level_ptr[level + 1];
    std::vector<NodeOutcome> outcomes(static_cast<size_t>(end - begin));
    const int threads = team > 1 ? level_team(team, level_flops(sn, begin, end)) : 1;
    auto one = [&](int64_t i, int thread, int inner, bool shared) {
      const int32_t node = sn.level_nodes[i];
      NodeOutcome o = factor(node, inner);
      if (!o.failed) update(node, thread, inner, shared);
      outcomes[static_cast<size_t>(i - begin)] = o;
    };
    if (inner_team && threads > 1 && end - begin < threads) {
      for (int64_t i = begin; i < end; ++i) one(i, 0, threads, false);
    } else if (threads > 1 && end - begin > 1) {
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
      for (int64_t i = begin; i < end; ++i) one(i, omp_get_thread_num(), 1, true);
    } else {
      for (int64_t i = begin; i < end; ++i) one(i, 0, 1, false);  // no team of one (factor_panel's note)
    }
    for (const NodeOutcome& o : outcomes) merge_node_stats(total, o.stats);
  }
  return total;
}

}  // namespace gpuglu::reference
