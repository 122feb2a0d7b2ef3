#pragma once
// Runs SplitLU's per-half work at once: half 1 on a new std::thread, half 0 on the caller's.
// Each call touches only its own half's objects. An exception of either is rethrown once both
// have ended (half 0's first): none may escape a thread, and none may leave the other half
// running over the caller's buffers.
#include <exception>
#include <thread>

namespace gpuglu::api {

template <class Work>
void run_both_halves(const Work& work) {
  std::exception_ptr failed[2];
  auto guarded = [&](int d) {
    try {
      work(d);
    } catch (...) {
      failed[d] = std::current_exception();
    }
  };
  std::thread other(guarded, 1);
  guarded(0);
  other.join();
  for (const std::exception_ptr& e : failed)
    if (e) std::rethrow_exception(e);
}

}  // namespace gpuglu::api
