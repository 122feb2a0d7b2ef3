#include "gpuglu/status.hpp"

namespace gpuglu {

const char* to_string(Status s) noexcept {
  switch (s) {
    case Status::ok: return "ok";
    case Status::invalid_input: return "invalid input";
    case Status::not_square: return "matrix is not square";
    case Status::structurally_singular: return "matrix is structurally singular";
    case Status::numerically_singular: return "matrix is numerically singular (zero or tiny pivot)";
    case Status::nan_or_inf: return "matrix has NaN or Inf values";
    case Status::empty_row: return "matrix has an empty row or column";
    case Status::index_overflow: return "index overflow";
    case Status::out_of_memory: return "out of memory";
    case Status::no_device: return "no usable GPU";
    case Status::device_error: return "CUDA error";
    case Status::pattern_changed: return "nonzero pattern differs from the analyzed one";
    case Status::not_analyzed: return "analyze() has not been called";
    case Status::not_factored: return "no valid numeric factorization";
    case Status::io_error: return "I/O error";
    case Status::unsupported: return "unsupported option";
  }
  return "unknown status";
}

}  // namespace gpuglu
