// cuSOLVER's refactorization (cusolverRf, deprecated in CUDA 13 but shipped): the GPU
// peer the GLU3.0 line of work is measured against. It refactors P A Q = L U on the GPU
// given the pattern of L and U from a first factorization on the host. It is given
// exactly gpuglu's analysis: the matched, scaled and ordered matrix C (schedule.hpp) with
// identity P and Q, and the L and U of gpuglu's first factorization, so both refactor the
// same pattern. Timed: cusolverRfResetValues (C's values already on the device) +
// cusolverRfRefactor, and cusolverRfSolve on a device vector.
#include <cuda_runtime.h>
#include <cusolverRf.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpuglu/matrix_ops.hpp"
#include "peer_cusolverrf.hpp"
#include "timing.hpp"

// cusolverRf is deprecated in favour of cuDSS; measuring it is the point here.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

namespace gpuglu::bench {

namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string("cusolverRf peer: ") + what + ": " + cudaGetErrorString(e));
}
void check(cusolverStatus_t s, const char* what) {
  if (s != CUSOLVER_STATUS_SUCCESS)
    throw std::runtime_error(std::string("cusolverRf peer: ") + what + " failed, status " + std::to_string(s));
}

struct HostCsr {
  std::vector<int> rowptr, colind;
  std::vector<double> values;
};

// C(k, l) = rs[rp[k]] A(rp[k], cp[l]) cs[cp[l]], rows sorted by l.
HostCsr permuted_scaled(const CsrMatrix<int32_t, double>& a, const Schedule& s) {
  HostCsr c;
  const int n = s.n;
  c.rowptr.assign(n + 1, 0);
  std::vector<std::pair<int, double>> row;
  for (int k = 0; k < n; ++k) {
    const int i = s.row_perm[k];
    row.clear();
    for (int32_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p)
      row.emplace_back(s.col_perm_inv[a.colind[p]], s.row_scale[i] * a.values[p] * s.col_scale[a.colind[p]]);
    std::sort(row.begin(), row.end());
    for (auto& e : row) {
      c.colind.push_back(e.first);
      c.values.push_back(e.second);
    }
    c.rowptr[k + 1] = static_cast<int>(c.colind.size());
  }
  return c;
}

// L (unit diagonal stored, cusolverRf's default) and U by rows from the CSC factor F.
void split_factor(const Schedule& s, const std::vector<double>& f, HostCsr& l, HostCsr& u) {
  const int n = s.n;
  l.rowptr.assign(n + 1, 0);
  u.rowptr.assign(n + 1, 0);
  for (int j = 0; j < n; ++j)
    for (int64_t p = s.f_colptr[j]; p < s.f_colptr[j + 1]; ++p) ++(s.f_rowind[p] > j ? l : u).rowptr[s.f_rowind[p] + 1];
  for (int i = 0; i < n; ++i) ++l.rowptr[i + 1];  // the stored unit diagonal
  for (int i = 0; i < n; ++i) {
    l.rowptr[i + 1] += l.rowptr[i];
    u.rowptr[i + 1] += u.rowptr[i];
  }
  l.colind.resize(l.rowptr[n]);
  l.values.resize(l.rowptr[n]);
  u.colind.resize(u.rowptr[n]);
  u.values.resize(u.rowptr[n]);
  std::vector<int> lnext(l.rowptr.begin(), l.rowptr.end() - 1), unext(u.rowptr.begin(), u.rowptr.end() - 1);
  // Columns in ascending order keep every row sorted; the unit diagonal of row i goes
  // after its columns < i, i.e. when column i is reached.
  for (int j = 0; j < n; ++j) {
    l.colind[lnext[j]] = j;
    l.values[lnext[j]++] = 1.0;
    for (int64_t p = s.f_colptr[j]; p < s.f_colptr[j + 1]; ++p) {
      const int i = s.f_rowind[p];
      HostCsr& t = i > j ? l : u;
      int& at = i > j ? lnext[i] : unext[i];
      t.colind[at] = j;
      t.values[at++] = f[p];
    }
  }
}

template <class T>
T* to_device(const std::vector<T>& h) {
  T* d = nullptr;
  check(cudaMalloc(&d, std::max<size_t>(1, h.size()) * sizeof(T)), "cudaMalloc");
  check(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy");
  return d;
}

}  // namespace

PeerTimes run_cusolverrf(const CsrMatrix<int32_t, double>& a, const std::vector<double>& b, const PeerRun& r,
                         const Schedule& s, const std::vector<double>& f) {
  const int n = s.n;
  HostCsr c = permuted_scaled(a, s), l, u;
  split_factor(s, f, l, u);
  std::vector<int> identity(n);
  for (int i = 0; i < n; ++i) identity[i] = i;
  PeerTimes t;
  t.nnz_factor = static_cast<int64_t>(l.colind.size()) - n + static_cast<int64_t>(u.colind.size());

  cusolverRfHandle_t h = nullptr;
  check(cusolverRfCreate(&h), "cusolverRfCreate");
  std::vector<void*> owned;
  try {
    check(cusolverRfSetResetValuesFastMode(h, CUSOLVERRF_RESET_VALUES_FAST_MODE_ON), "SetResetValuesFastMode");
    double t0 = now_ms();
    check(cusolverRfSetupHost(n, static_cast<int>(c.colind.size()), c.rowptr.data(), c.colind.data(), c.values.data(),
                              static_cast<int>(l.colind.size()), l.rowptr.data(), l.colind.data(), l.values.data(),
                              static_cast<int>(u.colind.size()), u.rowptr.data(), u.colind.data(), u.values.data(),
                              identity.data(), identity.data(), h),
          "cusolverRfSetupHost");
    check(cusolverRfAnalyze(h), "cusolverRfAnalyze");
    check(cudaDeviceSynchronize(), "synchronize");
    t.analyze_ms = now_ms() - t0;
    int* d_rowptr = to_device(c.rowptr);
    int* d_colind = to_device(c.colind);
    double* d_val = to_device(c.values);
    int* d_p = to_device(identity);
    owned = {d_rowptr, d_colind, d_val, d_p};
    auto refactor = [&] {
      check(cusolverRfResetValues(n, static_cast<int>(c.colind.size()), d_rowptr, d_colind, d_val, d_p, d_p, h),
            "cusolverRfResetValues");
      check(cusolverRfRefactor(h), "cusolverRfRefactor");
      check(cudaDeviceSynchronize(), "synchronize");
    };
    t0 = now_ms();
    refactor();
    t.factor_ms = now_ms() - t0;
    t.refactor_ms = median_ms(r.warmup, r.repeat, refactor);

    // C z = c with c = rs b permuted; x = cs z permuted back (schedule.hpp).
    std::vector<double> rhs(n), z(n), x(n);
    for (int k = 0; k < n; ++k) rhs[k] = s.row_scale[s.row_perm[k]] * b[s.row_perm[k]];
    double* d_x = to_device(rhs);
    double* d_rhs = to_device(rhs);
    double* d_work = to_device(rhs);
    owned.insert(owned.end(), {d_x, d_rhs, d_work});
    t.solve_ms = median_ms(r.warmup, r.repeat, [&] {
      check(cudaMemcpy(d_x, d_rhs, n * sizeof(double), cudaMemcpyDeviceToDevice), "cudaMemcpy");
      check(cusolverRfSolve(h, d_p, d_p, 1, d_work, n, d_x, n), "cusolverRfSolve");
      check(cudaDeviceSynchronize(), "synchronize");
    });
    check(cudaMemcpy(z.data(), d_x, n * sizeof(double), cudaMemcpyDeviceToHost), "cudaMemcpy");
    for (int l2 = 0; l2 < n; ++l2) x[s.col_perm[l2]] = s.col_scale[s.col_perm[l2]] * z[l2];
    t.residual = relative_residual(a.view(), x.data(), b.data());
  } catch (...) {
    for (void* p : owned) cudaFree(p);
    cusolverRfDestroy(h);
    throw;
  }
  for (void* p : owned) cudaFree(p);
  cusolverRfDestroy(h);
  return t;
}

}  // namespace gpuglu::bench
