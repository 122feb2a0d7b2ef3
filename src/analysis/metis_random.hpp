#pragma once
// METIS's random numbers, one generator per thread. Debian's METIS 5.1 draws them from the C
// library's rand() (GKlib built without its own generator), one process-wide state: two
// METIS calls on two threads interleave their draws, and each ordering then depends on the
// other's timing. Nested dissection orders its halves on parallel tasks (nested_dissection.hpp)
// only where every METIS call draws from its own thread's generator: libmetis's references
// to rand and srand (its GOT slots) are pointed at thread-local copies of glibc's generator
// (random_r: the same algorithm, state size and seed, so a single-threaded caller draws the
// very numbers it drew before). METIS seeds the generator at the start of every API call.
namespace gpuglu::analysis {

// Redirects once per process; true when libmetis now draws per thread (or draws from no
// process-wide rand at all). false: METIS calls must not run concurrently.
bool metis_draws_per_thread() noexcept;

// The per-thread generator METIS is given (for tests: it draws what the C library's
// srand/rand draw).
void thread_srand(unsigned seed);
int thread_rand();

}  // namespace gpuglu::analysis
