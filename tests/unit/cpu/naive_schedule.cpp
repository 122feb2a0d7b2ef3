#include "naive_schedule.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <stdexcept>

namespace gpuglu::test {

namespace {

// Per level: every target column k of the level's columns j (U(j, k) stored), each with
// its sources sorted by j. Rebuilt from level_ptr / level_cols and U's rows.
void build_update_lists(Schedule& s) {
  s.level_target_ptr.assign(1, 0);
  s.target_col.clear();
  s.target_src_ptr.assign(1, 0);
  s.target_src.clear();
  s.level_max_subcols.clear();
  for (int32_t l = 0; l < s.num_levels(); ++l) {
    std::map<int32_t, std::vector<std::pair<int32_t, int64_t>>> targets;
    int32_t max_sub = 0;
    for (int64_t c = s.level_ptr[l]; c < s.level_ptr[l + 1]; ++c) {
      const int32_t j = s.level_cols[c];
      max_sub = std::max<int32_t>(max_sub, static_cast<int32_t>(s.u_rowptr[j + 1] - s.u_rowptr[j]));
      for (int64_t e = s.u_rowptr[j]; e < s.u_rowptr[j + 1]; ++e) targets[s.u_colind[e]].push_back({j, s.u_pos[e]});
    }
    for (auto& [k, srcs] : targets) {
      std::sort(srcs.begin(), srcs.end());
      s.target_col.push_back(k);
      for (const auto& src : srcs) s.target_src.push_back(src.second);
      s.target_src_ptr.push_back(static_cast<int64_t>(s.target_src.size()));
    }
    s.level_target_ptr.push_back(static_cast<int64_t>(s.target_col.size()));
    s.level_max_subcols.push_back(max_sub);
  }
}

}  // namespace

Schedule naive_schedule(const CsrMatrix<int32_t, double>& a, const NaiveTransform& t) {
  const int32_t n = a.nrows;
  Schedule s;
  s.n = n;
  s.input_nnz = a.nnz();
  s.ordering = Ordering::natural;
  auto iota_or = [n](const std::vector<int32_t>& p) {
    if (!p.empty()) return p;
    std::vector<int32_t> id(static_cast<size_t>(n));
    std::iota(id.begin(), id.end(), 0);
    return id;
  };
  s.row_perm = iota_or(t.row_perm);
  s.col_perm = iota_or(t.col_perm);
  s.row_scale = t.row_scale.empty() ? std::vector<double>(static_cast<size_t>(n), 1.0) : t.row_scale;
  s.col_scale = t.col_scale.empty() ? std::vector<double>(static_cast<size_t>(n), 1.0) : t.col_scale;
  s.row_perm_inv.assign(static_cast<size_t>(n), 0);
  s.col_perm_inv.assign(static_cast<size_t>(n), 0);
  for (int32_t k = 0; k < n; ++k) {
    s.row_perm_inv[s.row_perm[k]] = k;
    s.col_perm_inv[s.col_perm[k]] = k;
  }

  // Dense symbolic factorization of C with diagonal pivots: fill (i, k) whenever
  // L(i, j) and U(j, k) are both present.
  std::vector<char> p(static_cast<size_t>(n) * n, 0);
  auto at = [&](int32_t i, int32_t j) -> char& { return p[static_cast<size_t>(i) * n + j]; };
  for (int32_t r = 0; r < n; ++r)
    for (int32_t q = a.rowptr[r]; q < a.rowptr[r + 1]; ++q) at(s.row_perm_inv[r], s.col_perm_inv[a.colind[q]]) = 1;
  for (int32_t j = 0; j < n; ++j) at(j, j) = 1;
  for (int32_t j = 0; j < n; ++j)
    for (int32_t i = j + 1; i < n; ++i)
      if (at(i, j))
        for (int32_t k = j + 1; k < n; ++k)
          if (at(j, k)) at(i, k) = 1;

  s.f_colptr.assign(1, 0);
  s.f_diag.assign(static_cast<size_t>(n), 0);
  std::vector<int64_t> pos(static_cast<size_t>(n) * n, -1);
  for (int32_t j = 0; j < n; ++j) {
    for (int32_t i = 0; i < n; ++i) {
      if (!at(i, j)) continue;
      pos[static_cast<size_t>(i) * n + j] = static_cast<int64_t>(s.f_rowind.size());
      if (i == j) s.f_diag[j] = static_cast<int64_t>(s.f_rowind.size());
      s.f_rowind.push_back(i);
      (i > j ? s.nnz_l : s.nnz_u) += 1;
    }
    s.f_colptr.push_back(static_cast<int64_t>(s.f_rowind.size()));
  }
  s.u_rowptr.assign(1, 0);
  s.l_rowptr.assign(1, 0);
  for (int32_t i = 0; i < n; ++i) {
    for (int32_t k = 0; k < n; ++k) {
      if (!at(i, k)) continue;
      if (k > i) {
        s.u_colind.push_back(k);
        s.u_pos.push_back(pos[static_cast<size_t>(i) * n + k]);
      } else if (k < i) {
        s.l_colind.push_back(k);
        s.l_pos.push_back(pos[static_cast<size_t>(i) * n + k]);
      }
    }
    s.u_rowptr.push_back(static_cast<int64_t>(s.u_colind.size()));
    s.l_rowptr.push_back(static_cast<int64_t>(s.l_colind.size()));
  }
  for (int32_t r = 0; r < n; ++r) {
    for (int32_t q = a.rowptr[r]; q < a.rowptr[r + 1]; ++q) {
      const int32_t c = a.colind[q];
      s.value_map.push_back(pos[static_cast<size_t>(s.row_perm_inv[r]) * n + s.col_perm_inv[c]]);
      s.value_scale.push_back(s.row_scale[r] * s.col_scale[c]);
    }
  }

  // GLU3.0 Algorithm 4: k depends on i < k when U(i, k) is stored and L(:, i) is not
  // empty (look up), or when L(k, i) is stored (look left). Levels: longest path.
  s.level_of.assign(static_cast<size_t>(n), 0);
  int32_t levels = 0;
  for (int32_t k = 0; k < n; ++k) {
    int32_t lev = 0;
    for (int32_t i = 0; i < k; ++i) {
      const bool l_nonempty = s.f_colptr[i + 1] - 1 > s.f_diag[i];
      if ((at(i, k) && l_nonempty) || at(k, i)) {
        lev = std::max(lev, s.level_of[i] + 1);
        ++s.num_dependencies;
      }
    }
    s.level_of[k] = lev;
    levels = std::max(levels, lev + 1);
  }
  s.level_ptr.assign(static_cast<size_t>(levels) + 1, 0);
  for (int32_t k = 0; k < n; ++k) ++s.level_ptr[s.level_of[k] + 1];
  for (int32_t l = 0; l < levels; ++l) s.level_ptr[l + 1] += s.level_ptr[l];
  s.level_cols.assign(static_cast<size_t>(n), 0);
  std::vector<int64_t> next(s.level_ptr.begin(), s.level_ptr.end() - 1);
  for (int32_t k = 0; k < n; ++k) s.level_cols[next[s.level_of[k]]++] = k;
  s.level_mode.assign(static_cast<size_t>(levels), KernelMode::stream);
  s.level_warps.assign(static_cast<size_t>(levels), 0);
  build_update_lists(s);
  return s;
}

Schedule merge_levels(const Schedule& s, int32_t l) {
  if (l < 0 || l + 1 >= s.num_levels()) throw std::invalid_argument("merge_levels: no level pair there");
  Schedule m = s;
  m.level_ptr.erase(m.level_ptr.begin() + l + 1);
  std::sort(m.level_cols.begin() + m.level_ptr[l], m.level_cols.begin() + m.level_ptr[l + 1]);
  for (int32_t& lev : m.level_of)
    if (lev > l) --lev;
  m.level_mode.pop_back();
  m.level_warps.pop_back();
  build_update_lists(m);
  return m;
}

int32_t first_dependent_level_pair(const Schedule& s) {
  for (int32_t l = 0; l + 1 < s.num_levels(); ++l) {
    for (int64_t c = s.level_ptr[l]; c < s.level_ptr[l + 1]; ++c) {
      const int32_t j = s.level_cols[c];
      if (s.f_colptr[j + 1] - 1 == s.f_diag[j]) continue;  // empty L column: its updates do nothing
      for (int64_t e = s.u_rowptr[j]; e < s.u_rowptr[j + 1]; ++e)
        if (s.level_of[s.u_colind[e]] == l + 1) return l;
    }
  }
  return -1;
}

}  // namespace gpuglu::test
