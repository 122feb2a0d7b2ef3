#pragma once
// The status an Error thrown by f carries (Status::ok when f throws none), and its message:
// how the tests of bad input read what the library refused and why.
#include <string>
#include <utility>

#include "gpuglu/status.hpp"

namespace gpuglu::test {

template <class F>
Status status_of(F&& f, std::string* message = nullptr) {
  try {
    std::forward<F>(f)();
  } catch (const Error& e) {
    if (message) *message = e.what();
    return e.status();
  }
  return Status::ok;
}

}  // namespace gpuglu::test
