#pragma once
// cusolverRf refactorization peer (CUDA builds only): see peer_cusolverrf.cpp.
#include <vector>

#include "gpuglu/matrix.hpp"
#include "gpuglu/schedule.hpp"
#include "peers.hpp"

namespace gpuglu::bench {

// s: gpuglu's analysis of a; f: the factor values of gpuglu's first factorization (the
// L and U pattern and values cusolverRf starts from). Throws std::runtime_error.
PeerTimes run_cusolverrf(const CsrMatrix<int32_t, double>& a, const std::vector<double>& b, const PeerRun& r,
                         const Schedule& s, const std::vector<double>& f);

}  // namespace gpuglu::bench
