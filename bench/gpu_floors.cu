#include <cuda_runtime.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu_floors.hpp"

namespace gpuglu::bench {

namespace {

__global__ void empty_kernel() {}

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string("gpu floors: ") + what + ": " + cudaGetErrorString(e));
}

template <class F>
double median_event_ms(cudaStream_t s, int repeat, F&& body) {
  cudaEvent_t a, b;
  check(cudaEventCreate(&a), "cudaEventCreate");
  check(cudaEventCreate(&b), "cudaEventCreate");
  body();  // warm-up
  std::vector<double> t;
  for (int r = 0; r < repeat; ++r) {
    check(cudaEventRecord(a, s), "cudaEventRecord");
    body();
    check(cudaEventRecord(b, s), "cudaEventRecord");
    check(cudaEventSynchronize(b), "cudaEventSynchronize");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, a, b), "cudaEventElapsedTime");
    t.push_back(ms);
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

}  // namespace

GpuFloors measure_gpu_floors() {
  GpuFloors out;
  cudaStream_t s;
  check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate");
  constexpr int kNodes = 2000;
  out.launch_us = 1000.0 * median_event_ms(s, 5, [&] {
                    for (int i = 0; i < kNodes; ++i) empty_kernel<<<1, 32, 0, s>>>();
                  }) / kNodes;
  cudaGraph_t g;
  cudaGraphExec_t ge;
  check(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal), "cudaStreamBeginCapture");
  for (int i = 0; i < kNodes; ++i) empty_kernel<<<1, 32, 0, s>>>();
  check(cudaStreamEndCapture(s, &g), "cudaStreamEndCapture");
  check(cudaGraphInstantiate(&ge, g, 0), "cudaGraphInstantiate");
  out.graph_node_us = 1000.0 * median_event_ms(s, 5, [&] { check(cudaGraphLaunch(ge, s), "cudaGraphLaunch"); }) / kNodes;
  cudaGraphExecDestroy(ge);
  cudaGraphDestroy(g);
  const size_t bytes = size_t(512) << 20;
  void *x = nullptr, *y = nullptr;
  check(cudaMalloc(&x, bytes), "cudaMalloc");
  check(cudaMalloc(&y, bytes), "cudaMalloc");
  const double ms = median_event_ms(s, 5, [&] { check(cudaMemcpyAsync(y, x, bytes, cudaMemcpyDeviceToDevice, s), "copy"); });
  out.copy_gb_per_s = 2.0 * static_cast<double>(bytes) / (ms * 1e6);
  cudaFree(x);
  cudaFree(y);
  cudaStreamDestroy(s);
  return out;
}

}  // namespace gpuglu::bench
