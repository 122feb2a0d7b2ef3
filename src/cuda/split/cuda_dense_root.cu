// The split factorization's root on a GPU (api/dense_root.hpp's make_cuda_dense_root):
// DeviceDenseLU behind the DenseRoot interface, its buffers made for the first k it meets.
#include <memory>

#include "api/cuda_module.hpp"
#include "api/dense_root.hpp"
#include "cuda/split/device_dense_lu.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu::api {

namespace {

class CudaDenseRoot final : public DenseRoot {
 public:
  CudaDenseRoot(int32_t device, const PivotRule& rule, bool symmetric)
      : device_(device), rule_(rule), symmetric_(symmetric) {}

  int64_t factor(const double* s, int64_t k) override {
    fit(k);
    lu_->upload(s);
    return finish(lu_->factor());
  }
  void solve(double* rhs, bool transpose) override {
    if (!factored_) throw Error(Status::not_factored, "the split factorization's root has no factor");
    lu_->solve(rhs, transpose);
  }
  double* device_rhs(int d) override { return lu_ ? lu_->rhs(d) : nullptr; }
  void solve_device_rhs(bool transpose) override {
    if (!factored_) throw Error(Status::not_factored, "the split factorization's root has no factor");
    lu_->solve_rhs(transpose);
  }
  double* device_block(int d, int64_t k) override {
    fit(k);
    factored_ = false;
    return d == 0 ? lu_->matrix() : lu_->block();
  }
  RootFactorization factorization() const noexcept override {
    return lu_ ? lu_->factorization() : RootFactorization::lu_pivoted;
  }
  int64_t factor_device_blocks() override {
    if (!lu_) throw Error(Status::invalid_input, "the split factorization's root: no device blocks were placed");
    lu_->add_block();
    return finish(lu_->factor());
  }

 private:
  void fit(int64_t k) {
    if (!lu_ || lu_->size() != k) {
      lu_.reset();
      lu_ = std::make_unique<cuda::DeviceDenseLU>(device_, k, rule_, symmetric_);
    }
  }
  int64_t finish(int64_t zero_pivot) {
    factored_ = zero_pivot < 0;
    return zero_pivot;
  }

  int32_t device_;
  PivotRule rule_;
  bool symmetric_;
  std::unique_ptr<cuda::DeviceDenseLU> lu_;
  bool factored_ = false;
};

}  // namespace

}  // namespace gpuglu::api

namespace gpuglu::cuda_entry {

std::unique_ptr<api::DenseRoot> make_dense_root(int32_t device, const PivotRule& rule, bool symmetric) {
  return std::make_unique<api::CudaDenseRoot>(device, rule, symmetric);
}

}  // namespace gpuglu::cuda_entry
