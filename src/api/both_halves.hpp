#pragma once
// Runs SplitLU's per-half work at once: half 1 on a new std::thread, half 0 on the caller's;
// and run_on_threads, its host passes over `team` parts (work(t), part 0 on the caller's
// thread). Each call touches only its own part's objects. An exception of any is rethrown
// once all have ended (the lowest part's first): none may escape a thread, and none may leave
// another part running over the caller's buffers. Plain threads that end with their part:
// an OpenMP team's spinning threads slowed the halves' GPU-driving threads beside them.
#include <exception>
#include <thread>
#include <vector>

namespace gpuglu::api {

template <class Work>
void run_on_threads(int team, const Work& work) {
  std::vector<std::exception_ptr> failed(static_cast<size_t>(team));
  auto guarded = [&](int t) {
    try {
      work(t);
    } catch (...) {
      failed[static_cast<size_t>(t)] = std::current_exception();
    }
  };
  std::vector<std::thread> others;
  others.reserve(static_cast<size_t>(team > 1 ? team - 1 : 0));
  for (int t = 1; t < team; ++t) others.emplace_back(guarded, t);
  guarded(0);
  for (std::thread& o : others) o.join();
  for (const std::exception_ptr& e : failed)
    if (e) std::rethrow_exception(e);
}

template <class Work>
void run_both_halves(const Work& work) {
  run_on_threads(2, work);
}

}  // namespace gpuglu::api
