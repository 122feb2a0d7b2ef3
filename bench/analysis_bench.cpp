// gpuglu_analysis_bench: the LU analysis alone (no factorization, no peers), its time split
// as Schedule::times has it, and a hash of the schedule it produced, so that a change to the
// analysis can be timed and checked for identical results on matrices too large to factor
// on a small machine (issue 14).
//   gpuglu_analysis_bench SPEC|FILE.mtx[.xz]... [--lu-engine column|supernodal] [--ldlt]
//                         [--ilu K] [--gpu] [--repeat N] [--threads N]
// --ilu K times the ILU(k) analysis in the natural ordering as PETSc's -pc_type ilu asks it
// for the CPU (the row ILU); --gpu analyzes for a GPU engine instead.
// --ldlt times the LDL^T analysis (analyze_symmetric, full storage) instead of the LU's.
// Prints one JSON line per matrix: median times (ms) over the repeats and the hash.
#include <omp.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "gpuglu/analysis.hpp"
#include "bench_matrices.hpp"
#include "timing.hpp"

namespace {

struct Hash {
  uint64_t h = 1469598103934665603ull;
  void bytes(const void* p, size_t n) {
    const auto* c = static_cast<const unsigned char*>(p);
    for (size_t i = 0; i < n; ++i) h = (h ^ c[i]) * 1099511628211ull;
  }
  template <class T>
  void vec(const std::vector<T>& v) {
    const uint64_t n = v.size();
    bytes(&n, sizeof n);
    if (!v.empty()) bytes(v.data(), v.size() * sizeof(T));
  }
};

uint64_t schedule_hash(const gpuglu::Schedule& s) {
  Hash h;
  h.vec(s.row_perm), h.vec(s.col_perm), h.vec(s.row_perm_inv), h.vec(s.col_perm_inv);
  h.vec(s.row_scale), h.vec(s.col_scale);
  h.vec(s.f_colptr), h.vec(s.f_rowind), h.vec(s.f_diag);
  h.vec(s.u_rowptr), h.vec(s.u_colind), h.vec(s.u_pos), h.vec(s.l_rowptr), h.vec(s.l_colind), h.vec(s.l_pos);
  h.vec(s.value_map), h.vec(s.value_scale);
  const gpuglu::Supernodes& sn = s.supernodes;
  h.bytes(&sn.count, sizeof sn.count);
  h.vec(sn.first), h.vec(sn.rows_ptr), h.vec(sn.rows), h.vec(sn.of_col), h.vec(sn.parent), h.vec(sn.l_ptr),
      h.vec(sn.u_ptr), h.vec(sn.f_pos), h.vec(sn.level_ptr), h.vec(sn.level_nodes);
  h.bytes(&sn.values, sizeof sn.values);
  h.bytes(&sn.explicit_zeros, sizeof sn.explicit_zeros);
  h.bytes(&s.nnz_l, sizeof s.nnz_l), h.bytes(&s.nnz_u, sizeof s.nnz_u), h.bytes(&s.factor_flops, sizeof s.factor_flops);
  const int ord = static_cast<int>(s.ordering);
  h.bytes(&ord, sizeof ord);
  return h.h;
}

}  // namespace

int main(int argc, char** argv) {
  namespace gb = gpuglu::bench;
  std::vector<std::string> specs;
  gpuglu::Options o;
  o.lu_engine = gpuglu::LuEngine::supernodal;
  int repeat = 3, threads = 1;
  bool ldlt = false;
  for (int i = 1; i < argc; ++i) {
    const std::string k = argv[i];
    if (k == "--repeat" && i + 1 < argc) repeat = std::max(1, std::atoi(argv[++i]));
    else if (k == "--threads" && i + 1 < argc) threads = std::max(1, std::atoi(argv[++i]));
    else if (k == "--ldlt") ldlt = true;
    else if (k == "--ilu" && i + 1 < argc) {
      o.ilu_levels = std::max(0, std::atoi(argv[++i]));
      o.ordering = gpuglu::Ordering::natural;
      o.lu_engine = gpuglu::LuEngine::column;
      o.pivot_threshold = 0.0;  // PETSc's ILU: the analysis builds the row ILU for the CPU
      o.backend = gpuglu::Backend::cpu;
    } else if (k == "--gpu") {
      o.backend = gpuglu::Backend::cuda;  // the schedule a GPU engine reads (for --ilu: the column kind)
    }
    else if (k == "--lu-engine" && i + 1 < argc) {
      const std::string e = argv[++i];
      o.lu_engine = e == "column" ? gpuglu::LuEngine::column : gpuglu::LuEngine::supernodal;
    } else if (k.rfind("--", 0) == 0) {
      std::fprintf(stderr,
                   "usage: gpuglu_analysis_bench SPEC|FILE... [--lu-engine column|supernodal] [--ldlt] [--ilu K] [--gpu] "
                   "[--repeat N] [--threads N]\n");
      return 2;
    } else specs.push_back(k);
  }
  omp_set_num_threads(threads);
  o.num_threads = threads;
  o.ordering_cache = false;  // each repeat orders, as a first analysis does
  for (const std::string& arg : specs) {
    const gb::BenchMatrix m = gb::load_bench_matrix(arg);
    const std::string& spec = m.name;
    const auto& a = m.a;
    std::vector<gpuglu::AnalysisTimes> t;
    std::vector<double> wall;
    uint64_t hash = 0;
    long long nnz_lu = 0;
    double flops = 0.0;
    const char* kind = "";
    for (int r = 0; r < repeat; ++r) {
      const double t0 = gb::now_ms();
      const gpuglu::Schedule s = ldlt ? gpuglu::analyze_symmetric(a.view(), gpuglu::StoredTriangle::full, o)
                                      : gpuglu::analyze(a.view(), o);
      wall.push_back(gb::now_ms() - t0);
      t.push_back(s.times);
      const uint64_t h = schedule_hash(s);
      if (r > 0 && h != hash) std::fprintf(stderr, "%s: the schedule differs between repeats\n", spec.c_str());
      hash = h;
      nnz_lu = s.nnz_l + s.nnz_u;
      flops = s.factor_flops;
      kind = gpuglu::to_string(s.kind);
    }
    auto med = [&](double gpuglu::AnalysisTimes::*f) {
      std::vector<double> v;
      for (const auto& x : t) v.push_back(x.*f);
      return gb::median(v);
    };
    using T = gpuglu::AnalysisTimes;
    std::printf(
        "{\"matrix\": \"%s\", \"factor\": \"%s\", \"kind\": \"%s\", \"n\": %d, \"nnz\": %lld, \"nnz_lu\": %lld, \"flops\": %.4g, \"threads\": %d, \"analyze_ms\": %.2f, \"matching_ms\": %.2f, "
        "\"ordering_ms\": %.2f, \"symbolic_ms\": %.2f, \"levels_ms\": %.2f, \"sn_input_ms\": %.2f, "
        "\"sn_cholmod_ms\": %.2f, \"sn_panels_ms\": %.2f, \"sn_factor_ms\": %.2f, \"sn_value_map_ms\": %.2f, "
        "\"hash\": \"%016llx\"}\n",
        spec.c_str(), ldlt ? "ldlt" : o.ilu_levels >= 0 ? "ilu" : "lu", kind, a.nrows, static_cast<long long>(a.nnz()), nnz_lu, flops, threads, gb::median(wall), med(&T::matching_ms), med(&T::ordering_ms),
        med(&T::symbolic_ms), med(&T::levels_ms), med(&T::sn_input_ms), med(&T::sn_cholmod_ms),
        med(&T::sn_panels_ms), med(&T::sn_factor_ms), med(&T::sn_value_map_ms), static_cast<unsigned long long>(hash));
    std::fflush(stdout);
  }
  return 0;
}
