#pragma once
// Status codes and the exception type of the gpuglu core. The PETSc adapter
// catches gpuglu::Error at its boundary and turns it into a PETSc error whose
// message is what(); status() picks the PETSc error class.
#include <stdexcept>
#include <string>

namespace gpuglu {

enum class Status {
  ok,
  invalid_input,          // malformed arrays, indices out of range, unsorted where sorted is required
  not_square,             // nrows != ncols
  structurally_singular,  // no perfect matching / structurally zero pivot
  numerically_singular,   // zero or tiny pivot under PivotPolicy::report
  nan_or_inf,             // a NaN or Inf in the values
  empty_row,              // a row (or column) without any stored entry
  index_overflow,         // a size does not fit the index type
  out_of_memory,          // host or device allocation failed
  no_device,              // the CUDA backend was requested but no GPU is usable
  device_error,           // a CUDA call failed
  pattern_changed,        // factor() got a pattern other than the analyzed one
  not_analyzed,           // factor() before analyze()
  not_factored,           // solve() before a successful factor()
  io_error,               // a file could not be read or parsed
  unsupported,            // an option value this build does not support
};

const char* to_string(Status s) noexcept;

class Error : public std::runtime_error {
 public:
  Error(Status status, const std::string& message) : std::runtime_error(message), status_(status) {}
  Status status() const noexcept { return status_; }

 private:
  Status status_;
};

}  // namespace gpuglu
