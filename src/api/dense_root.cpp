#include "api/dense_root.hpp"

#include "gpuglu/status.hpp"

namespace gpuglu::api {

int64_t DenseRoot::factor_device_blocks() {
  throw Error(Status::unsupported, "the split factorization's root is on the host: it takes S through factor()");
}

void DenseRoot::solve_device_rhs(bool) {
  throw Error(Status::unsupported, "the split factorization's root is on the host: it solves through solve()");
}

// The halves' backend decides: a GPU pair keeps S on the GPU, a CPU pair on the host.
std::unique_ptr<DenseRoot> make_dense_root(Backend backend, int32_t device, const PivotRule& rule, bool symmetric) {
  if (backend == Backend::cuda) return make_cuda_dense_root(device, rule, symmetric);
  return make_lapack_dense_root();
}

}  // namespace gpuglu::api
