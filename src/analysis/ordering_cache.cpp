#include "analysis/ordering_cache.hpp"

#include <algorithm>
#include <mutex>

namespace gpuglu::analysis {

namespace {

struct Entry {
  Ordering method;
  uint64_t fingerprint;
  std::vector<int32_t> q;
  uint64_t last_use;
};

struct Cache {
  std::mutex m;
  std::vector<Entry> entries;
  uint64_t clock = 0;
  uint64_t hits = 0;
};

Cache& cache() {
  static Cache c;
  return c;
}

}  // namespace

std::vector<int32_t> cached_ordering(Ordering method, uint64_t fingerprint, int32_t n,
                                     const std::function<std::vector<int32_t>()>& compute) {
  Cache& c = cache();
  {
    std::lock_guard<std::mutex> lock(c.m);
    for (Entry& e : c.entries)
      if (e.method == method && e.fingerprint == fingerprint && e.q.size() == static_cast<size_t>(n)) {
        e.last_use = ++c.clock;
        ++c.hits;
        return e.q;
      }
  }
  std::vector<int32_t> q = compute();
  std::lock_guard<std::mutex> lock(c.m);
  if (c.entries.size() >= kOrderingCacheEntries) {
    auto oldest = std::min_element(c.entries.begin(), c.entries.end(),
                                   [](const Entry& a, const Entry& b) { return a.last_use < b.last_use; });
    c.entries.erase(oldest);
  }
  c.entries.push_back(Entry{method, fingerprint, q, ++c.clock});
  return q;
}

void clear_ordering_cache() {
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.m);
  c.entries.clear();
}

size_t ordering_cache_size() {
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.m);
  return c.entries.size();
}

uint64_t ordering_cache_hits() {
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.m);
  return c.hits;
}

}  // namespace gpuglu::analysis
