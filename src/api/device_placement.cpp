// Which of its devices a process puts a factor on (include/gpuglu/device.hpp): the rule of
// devices_of_rank, and the process's live claims, counted per ordinal under one lock.
#include <algorithm>
#include <mutex>
#include <vector>

#include "gpuglu/device.hpp"

namespace gpuglu {

std::vector<int32_t> devices_of_rank(int32_t device_count, int32_t local_rank, int32_t local_size) {
  std::vector<int32_t> mine;
  if (device_count <= 0) return mine;
  const int32_t rank = std::max(local_rank, 0);
  if (local_size <= 0) local_size = rank == 0 ? 1 : device_count;
  if (local_size >= device_count) {
    mine.push_back(rank % device_count);
    return mine;
  }
  for (int32_t d = rank % local_size; d < device_count; d += local_size) mine.push_back(d);
  return mine;
}

namespace {

struct Claims {
  std::mutex mutex;
  std::vector<int64_t> live;  // per ordinal

  int64_t& of(int32_t ordinal) {
    if (live.size() <= static_cast<size_t>(ordinal)) live.resize(static_cast<size_t>(ordinal) + 1, 0);
    return live[static_cast<size_t>(ordinal)];
  }
  // The process's device with the fewest live claims (call with the mutex held).
  int32_t least_claimed() {
    const std::vector<int32_t> mine =
        devices_of_rank(query_device().device_count, local_rank_from_environment(), local_size_from_environment());
    int32_t best = -1;
    for (int32_t d : mine)
      if (best < 0 || of(d) < of(best)) best = d;
    return best;
  }
};

Claims& claims() {
  static Claims c;
  return c;
}

}  // namespace

int32_t next_device(int32_t requested) noexcept {
  if (requested >= 0) return requested;
  Claims& c = claims();
  std::lock_guard<std::mutex> lock(c.mutex);
  return c.least_claimed();
}

DeviceClaim::DeviceClaim(int32_t requested) {
  Claims& c = claims();
  std::lock_guard<std::mutex> lock(c.mutex);
  ordinal_ = requested >= 0 ? requested : c.least_claimed();
  if (ordinal_ < 0) return;
  ++c.of(ordinal_);
  held_ = true;
}

DeviceClaim& DeviceClaim::operator=(DeviceClaim&& other) noexcept {
  if (this != &other) {
    release();
    ordinal_ = other.ordinal_;
    held_ = other.held_;
    other.held_ = false;
  }
  return *this;
}

void DeviceClaim::release() noexcept {
  if (!held_) return;
  Claims& c = claims();
  std::lock_guard<std::mutex> lock(c.mutex);
  --c.of(ordinal_);
  held_ = false;
}

}  // namespace gpuglu
