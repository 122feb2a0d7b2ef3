#pragma once
// The split's device path (api/split_device.hpp) moves values and vectors between A's
// numbering and the halves' by index maps: out[e] = in[map[e]] (zero where map[e] < 0) and
// out[map[e]] = in[e]. The maps are split_vector_maps' and SplitHalf::source, built and
// tested on the host.
#include <cuda_runtime.h>

#include <cstdint>

namespace gpuglu::cuda::kernels {

// e < count; asynchronous on stream; nothing when count <= 0.
void launch_gather_or_zero(int64_t count, const int64_t* map, const double* in, double* out, cudaStream_t stream);
void launch_scatter(int64_t count, const int64_t* map, const double* in, double* out, cudaStream_t stream);

}  // namespace gpuglu::cuda::kernels
