// DenseRoot on the host: LAPACK's dgetrf / dgetrs (the Fortran symbols; Debian's liblapack
// or OpenBLAS behind it, linked as gpuglu_dep::lapack).
#include <limits>
#include <string>
#include <vector>

#include "api/dense_root.hpp"
#include "gpuglu/status.hpp"

extern "C" {
void dgetrf_(const int* m, const int* n, double* a, const int* lda, int* ipiv, int* info);
void dgetrs_(const char* trans, const int* n, const int* nrhs, const double* a, const int* lda, const int* ipiv,
             double* b, const int* ldb, int* info, size_t trans_len);
}

namespace gpuglu::api {

namespace {

class LapackDenseRoot final : public DenseRoot {
 public:
  int64_t factor(const double* s, int64_t k) override {
    factored_ = false;
    if (k < 0 || k > std::numeric_limits<int>::max() / 2)
      throw Error(Status::index_overflow, "dense root: k = " + std::to_string(k) + " exceeds LAPACK's int range");
    k_ = static_cast<int>(k);
    lu_.assign(s, s + k * k);
    pivots_.resize(static_cast<size_t>(k));
    int info = 0;
    if (k_ > 0) dgetrf_(&k_, &k_, lu_.data(), &k_, pivots_.data(), &info);
    if (info < 0) throw Error(Status::invalid_input, "dgetrf: argument " + std::to_string(-info) + " is invalid");
    if (info > 0) return info - 1;
    factored_ = true;
    return -1;
  }

  void solve(double* rhs, bool transpose) override {
    if (!factored_) throw Error(Status::not_factored, "dense root: solve() without a successful factor()");
    if (k_ == 0) return;
    const char trans = transpose ? 'T' : 'N';
    const int one = 1;
    int info = 0;
    dgetrs_(&trans, &k_, &one, lu_.data(), &k_, pivots_.data(), rhs, &k_, &info, 1);
    if (info != 0) throw Error(Status::invalid_input, "dgetrs: argument " + std::to_string(-info) + " is invalid");
  }

 private:
  int k_ = 0;
  bool factored_ = false;
  std::vector<double> lu_;
  std::vector<int> pivots_;
};

}  // namespace

std::unique_ptr<DenseRoot> make_lapack_dense_root() { return std::make_unique<LapackDenseRoot>(); }

}  // namespace gpuglu::api
