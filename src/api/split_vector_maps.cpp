// split_vector_maps (api/split_device.hpp): the device solves' gathers and scatters between A's
// numbering and the halves', the host split's (split_solve.cpp) written as index maps.
#include "api/split_device.hpp"

namespace gpuglu::api {

SplitVectorMaps split_vector_maps(const SplitPartition& p, const std::array<SplitHalf, 2>& halves) {
  SplitVectorMaps m;
  for (int d = 0; d < 2; ++d) {
    const SplitHalf& h = halves[d];
    const int32_t written = d == 0 ? h.size() : h.n_part;
    for (int t = 0; t < 2; ++t) {
      std::vector<int64_t>& in = m.in[d][t];
      std::vector<int64_t>& out = m.out[d][t];
      in.resize(static_cast<size_t>(h.size()));
      out.resize(static_cast<size_t>(written));
      for (int32_t l = 0; l < h.size(); ++l) {
        const int32_t g = h.global[l];
        const int32_t row = p.row_of_col[g];
        in[l] = d == 1 && l >= h.n_part ? -1 : (t == 0 ? row : g);
        if (l < written) out[l] = t == 0 ? g : row;
      }
    }
  }
  return m;
}

}  // namespace gpuglu::api
