#pragma once
// A supernodal LU's or LDL^T's factor copied in the order a plain solve's sweeps read it.
//
// The panels (include/gpuglu/supernodes.hpp) are laid out for the factorization: supernodes
// ascending, all L panels and then all U^T panels. The backward sweep walks them downwards
// supernode by supernode, reading each short panel upwards-then-jumping: a pattern the hardware
// prefetcher does not follow, so out of cache (a rank's several subdomain factors, one solve
// each per Krylov step) every supernode waits on memory. Here each sweep's numbers lie in one
// ascending stream:
//   forward, supernodes ascending: the diagonal block's strict lower triangle by columns, then
//     L21 by rows, in groups of kGroup rows interleaved by column (the rest by rows), so that a
//     group's sums are in flight together;
//   backward, supernodes descending: U12^T by columns (a supernode of kGroup columns or more:
//     groups of kGroup columns interleaved by row, the rest by columns), then the diagonal
//     block's upper triangle, columns descending (U(0..k, k), k + 1 entries), with the below
//     rows' indices in the same order.
// An LDL^T's (cpu/supernodal_ldlt.hpp) forward sweep is the LU's; D's diagonal is copied in
// pivot order; its backward sweep (L^T) reads L21 where the LU's reads U12^T, grouped the same
// way, then the diagonal block's strict lower triangle by rows, descending (L(c, 0..c-1)).
// Every sum runs in the order of cpu/supernodal_solve.cpp's and cpu/supernodal_ldlt.cpp's
// sweeps, so x is the same bit for bit; those sweeps stay the oracle (and serve the
// transposed and Schur solves).
//
// A large factor's sweeps run on a team (one thread streams its entries at a fraction of the
// memory's bandwidth): the supernodal tree is cut once per copy into up to kPieces pieces,
// each a run of whole subtrees (contiguous in the tree's postorder), and the top, the
// supernodes above them. Forward: the pieces in parallel, each keeping what it subtracts from
// rows outside itself (the top's) in its own list, in the order it computes them; then the
// top in ascending order, replaying each piece's list where the piece's supernodes stand in
// that order. Backward: the top descending, then the pieces in parallel. Each entry of x thus
// receives the same subtractions in the same order as in the plain sweep, so x is the same
// bit for bit whatever the team. The cut depends on the factor alone.
#include <cstdint>
#include <vector>

#include "core/first_touch.hpp"
#include "core/supernode_pivoting.hpp"
#include "cpu/supernodal_ldlt.hpp"
#include "gpuglu/schedule.hpp"

namespace gpuglu::reference {

class SweepLayout {
 public:
  // The copy costs about one solve on one thread (its pass over the factor; the first one also
  // the pages of its storage, which later factorizations reuse) and gains where the factor is
  // out of cache, so it is built where a factorization is solved many times: a Krylov method's
  // preconditioner (a subdomain's, a block's), not a direct solve's one or two. kBuildAtSolve
  // plain solves of one factorization mark the first; up to kMaxEntries (a second copy of a
  // factor larger than that costs more memory than its solves gain). A factor large enough to
  // be cut into pieces (teamed: kPiecesFromEntries, and more than one thread) is copied by the
  // team, and its first solve builds it: one plain solve, a single thread on the panels, takes
  // longer than the team's copy and its solve together (a fieldsplit block solved two or three
  // times per factorization: docs/performance.md).
  static constexpr int32_t kBuildAtSolve = 4;
  static constexpr int64_t kMaxEntries = int64_t{1} << 24;
  // The panels' entries stand for the copy's, which cut() counts once the copy is laid out:
  // the same for an LU; an LDL^T's copy holds its panels' entries at least, less its roots'
  // columns, so at the bound a teamed copy may still go uncut (one thread sweeps it).
  static bool teamed(const Schedule& s, int32_t threads) {
    return threads_of(threads) > 1 && s.supernodes.values >= kPiecesFromEntries;
  }
  static bool pays(const Schedule& s, int32_t plain_solves, int32_t threads = 1) {
    return plain_solves >= (teamed(s, threads) ? 1 : kBuildAtSolve) && s.supernodes.values <= kMaxEntries;
  }

  // From the panels of s's last factorization: a supernodal LU's, or with ldlt its pivots, an
  // LDL^T's; copied on threads where teamed.
  void build(const Schedule& s, const double* panels, const LdltPivots* ldlt = nullptr, int32_t threads = 1);
  // Counts one plain solve of the last factorization (panels: its factor; ldlt: an LDL^T's
  // pivots) and builds the copy once it pays; whether solve() reads a copy of that
  // factorization. threads: the solves' team (Options::num_threads).
  bool ready(const Schedule& s, const double* panels, const LdltPivots* ldlt = nullptr, int32_t threads = 1) {
    if (!built_ && pays(s, ++solves_, threads)) build(s, panels, ldlt, threads);
    return built_;
  }
  // A new factorization: no copy, no solves counted (the storage is kept for the next copy).
  void clear() noexcept {
    built_ = false;
    solves_ = 0;
  }

  // x = A^{-1} b, as solve_with_panels(s, panels, b, x, work, false, rows) computes it. b and
  // x may alias; work: n entries; threads: the team (Options::num_threads; 0: OpenMP's default),
  // taken where the copy was cut into pieces.
  void solve(const Schedule& s, const double* b, double* x, double* work, SupernodeRowOrder rows,
             int32_t threads = 1) const;
  // x = A^{-1} b, as solve_supernodal_ldlt(s, panels, pivots, b, x, work) computes it (a copy
  // built with those pivots).
  void solve_ldlt(const Schedule& s, const double* b, double* x, double* work, const LdltPivots& pivots,
                  int32_t threads = 1) const;

  // The pieces the copy's sweeps share out (0: one thread runs them whole).
  int32_t pieces() const noexcept { return static_cast<int32_t>(piece_first_.size()); }

  // The cut: up to kPieces pieces, where the sweeps read at least kPiecesFromEntries entries.
  static constexpr int32_t kPieces = 64;
  static constexpr int64_t kPiecesFromEntries = int64_t{1} << 20;

 private:
  // L x = x (forward), and U x = x or, for an LDL^T, L^T x = x with its pivot orders (rows).
  void lower(const Schedule& s, double* x, SupernodeRowOrder rows, int32_t team) const;
  void upper(const Schedule& s, double* x, SupernodeRowOrder rows, int32_t team) const;
  // One supernode's step of either sweep, and its parts. The forward step subtracts from x the
  // sums of its first `internal` below rows (internal_[t] in a piece, all of them else) and
  // keeps the rest in ext (in row order) for its piece's replay; lower_rows does rows a0..a1 of
  // its rectangle (from rect), upper_columns columns k0..k1 (the .cpp says which bounds).
  void lower_step(const Schedule& s, int32_t t, double* x, SupernodeRowOrder rows, int64_t internal, double* ext,
                  std::vector<double>& tmp) const;
  void lower_triangle(const Schedule& s, int32_t t, double* x, SupernodeRowOrder rows, std::vector<double>& tmp) const;
  const double* forward_rectangle(const Schedule& s, int32_t t) const;  // where t's rectangle's rows begin
  void lower_rows(const Schedule& s, int32_t t, double* x, const double* rect, int64_t a0, int64_t a1,
                  int64_t internal, double* ext) const;
  void replay(int32_t piece, double* x) const;  // a piece's sums to the top, subtracted in order
  void upper_step(const Schedule& s, int32_t t, double* x, SupernodeRowOrder rows, std::vector<double>& gathered,
                  std::vector<double>& tmp) const;
  void upper_columns(const Schedule& s, int32_t t, double* x, int32_t k0, int32_t k1, const double* g) const;
  void gather_below(const Schedule& s, int32_t t, const double* x, std::vector<double>& gathered) const;
  void upper_triangle(const Schedule& s, int32_t t, double* x, SupernodeRowOrder rows,
                      std::vector<double>& tmp) const;
  static int64_t below_rows(const Schedule& s, int32_t t) { return s.supernodes.nrows(t) - s.supernodes.cols(t); }
  // Cuts the tree into pieces (the class comment) and lists what the sweeps walk.
  void cut(const Schedule& s);
  // The team of a solve on threads (0: OpenMP's default): no more than the pieces.
  int32_t team_of(int32_t threads) const;
  std::vector<std::vector<double>>& team_scratch(int32_t team) const;
  // Whether supernode t's entries of x are put in its row order (and back): where rows say so
  // and, for an LDL^T, its pivots moved any column (most supernodes of a definite matrix keep
  // their order, and the copy there is a third of a small supernode's sweep).
  bool reorders(SupernodeRowOrder rows, int32_t t) const;

  bool built_ = false;
  bool ldlt_ = false;  // the copy is an LDL^T's
  std::vector<double> diagonal_;  // an LDL^T's D(j, j), j in pivot order
  std::vector<int8_t> moved_;     // an LDL^T's supernodes whose pivot order is not the identity
  int32_t solves_ = 0;  // plain solves of the last factorization, until the copy is built
  FirstTouchVector<double> forward_, backward_;  // the team's copy touches their pages first
  std::vector<int32_t> backward_rows_;
  std::vector<int64_t> forward_at_, backward_at_, backward_rows_at_;  // per supernode
  // The cut: piece p holds supernodes piece_first_[p]..piece_last_[p]; its sums to the top's
  // rows go to ext_values_ from ext_at_[p] on (ext_rows_: their rows, for the replay).
  // internal_: per supernode, its below rows that its piece's forward step subtracts itself
  // (all of them for the top's). walk_: the forward top walk, ascending: a supernode t >= 0,
  // or piece p as -(p + 1).
  std::vector<int32_t> piece_first_, piece_last_, walk_, ext_rows_;
  // The top's walk (walk_[begin..end)) in runs that one thread sweeps, or a wide supernode alone
  // (shared) whose rectangle the team shares out.
  struct Run {
    int32_t begin, end;
    bool shared;
  };
  std::vector<Run> forward_runs_, backward_runs_;
  std::vector<int64_t> ext_at_, internal_;
  // Scratch of a solve (an engine solves one at a time): the pieces' sums, the team's vectors.
  mutable std::vector<double> ext_values_;
  mutable std::vector<std::vector<double>> scratch_;
  int64_t widest_ = 0;  // the most rows of any supernode: its columns or below rows, at most
};

}  // namespace gpuglu::reference
