#pragma once
// cuDSS peer (built only when -DGPUGLU_CUDSS_ROOT points at a cuDSS install, e.g. the
// unpacked nvidia-cudss-cu13 wheel): see peer_cudss.cpp.
#include <vector>

#include "gpuglu/matrix.hpp"
#include "peers.hpp"

namespace gpuglu::bench {

// cuDSS on A as given (its own reordering and matching, its defaults otherwise).
// Throws std::runtime_error naming the failing call.
PeerTimes run_cudss(const CsrMatrix<int32_t, double>& a, const std::vector<double>& b, const PeerRun& r);

}  // namespace gpuglu::bench
