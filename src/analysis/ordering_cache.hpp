#pragma once
// Orderings this process has computed, found again by a fingerprint of what was ordered
// (the graph of B + B^T for METIS, B's pattern for AMD and COLAMD) and the method. A new PC
// or KSP on an equal pattern, bjacobi/asm blocks with equal subdomain patterns, and the LU
// and the LDL^T of one symmetric pattern then order it once. The ordering is the dominant
// part of the analysis, and any permutation is a correct one: a fingerprint collision
// (2^-64 per pair) could cost fill, never a wrong factor.
#include <cstdint>
#include <functional>
#include <vector>

#include "gpuglu/options.hpp"

namespace gpuglu::analysis {

constexpr size_t kOrderingCacheEntries = 16;  // the least recently used goes first

// The cached q of (method, fingerprint) when one is held with n entries; else compute()'s,
// which is then kept. Thread-safe; compute() runs outside the cache's lock.
std::vector<int32_t> cached_ordering(Ordering method, uint64_t fingerprint, int32_t n,
                                     const std::function<std::vector<int32_t>()>& compute);

// Drops every entry (tests; and the memory, when a caller wants it back).
void clear_ordering_cache();
// Entries held and lookups answered from the cache since the process started (for tests).
size_t ordering_cache_size();
uint64_t ordering_cache_hits();

}  // namespace gpuglu::analysis
