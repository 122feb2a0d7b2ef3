#include "cpu/supernodal_blas.hpp"

#include <dlfcn.h>

#include <limits>
#include <string>

#include "gpuglu/status.hpp"

extern "C" {
void dgemm_(const char* ta, const char* tb, const int* m, const int* n, const int* k, const double* alpha,
            const double* a, const int* lda, const double* b, const int* ldb, const double* beta, double* c,
            const int* ldc, size_t ta_len, size_t tb_len);
void dtrsm_(const char* side, const char* uplo, const char* trans, const char* diag, const int* m, const int* n,
            const double* alpha, const double* a, const int* lda, double* b, const int* ldb, size_t side_len,
            size_t uplo_len, size_t trans_len, size_t diag_len);
}

namespace gpuglu::reference {

namespace {

// The library that answers our dgemm_ calls, found by the address they go to; optimized where
// it (or a library it loads: Debian's libblas.so.3 alternative for OpenBLAS loads
// libopenblas.so.0) has an optimized BLAS's own entry points.
struct BlasLibrary {
  bool optimized = false;
  int (*get_threads)() = nullptr;  // OpenBLAS's pool size, and its setter
  void (*set_threads)(int) = nullptr;
};

const BlasLibrary& blas_library() {
  static const BlasLibrary lib = [] {
    BlasLibrary out;
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(&dgemm_), &info) == 0 || !info.dli_fname) return out;
    void* h = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
    if (!h) return out;
    out.get_threads = reinterpret_cast<int (*)()>(dlsym(h, "openblas_get_num_threads"));
    out.set_threads = reinterpret_cast<void (*)(int)>(dlsym(h, "openblas_set_num_threads"));
    for (const char* entry : {"openblas_get_num_threads", "mkl_get_max_threads", "bli_info_get_version_str"})
      out.optimized = out.optimized || dlsym(h, entry) != nullptr;
    dlclose(h);  // NOLOAD took a reference to a library that stays loaded
    return out;
  }();
  return lib;
}

int as_int(int64_t v, const char* what) {
  if (v < 0 || v > std::numeric_limits<int>::max())
    throw Error(Status::index_overflow, std::string("BLAS call: ") + what + " = " + std::to_string(v) +
                                            " exceeds the BLAS's int range");
  return static_cast<int>(v);
}

}  // namespace

bool blas_available() { return blas_library().optimized; }

BlasThreadsOne::BlasThreadsOne() {
  const BlasLibrary& lib = blas_library();
  if (!lib.get_threads || !lib.set_threads) return;
  saved_ = lib.get_threads();
  if (saved_ != 1) lib.set_threads(1);
}

BlasThreadsOne::~BlasThreadsOne() {
  const BlasLibrary& lib = blas_library();
  if (saved_ > 1) lib.set_threads(saved_);
}

void gemm(char ta, char tb, int64_t m, int64_t n, int64_t k, double alpha, const double* a, int64_t lda,
          const double* b, int64_t ldb, double beta, double* c, int64_t ldc) {
  if (m == 0 || n == 0) return;
  const int im = as_int(m, "m"), in = as_int(n, "n"), ik = as_int(k, "k");
  const int ia = as_int(lda, "lda"), ib = as_int(ldb, "ldb"), ic = as_int(ldc, "ldc");
  dgemm_(&ta, &tb, &im, &in, &ik, &alpha, a, &ia, b, &ib, &beta, c, &ic, 1, 1);
}

void trsm_left_unit_lower(int64_t m, int64_t n, const double* l, int64_t ldl, double* b, int64_t ldb) {
  if (m == 0 || n == 0) return;
  const int im = as_int(m, "m"), in = as_int(n, "n"), il = as_int(ldl, "ldl"), ib = as_int(ldb, "ldb");
  const double one = 1.0;
  dtrsm_("L", "L", "N", "U", &im, &in, &one, l, &il, b, &ib, 1, 1, 1, 1);
}

}  // namespace gpuglu::reference
