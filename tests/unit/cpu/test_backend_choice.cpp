// The automatic backend's size rule (api/engine_choice.hpp): a factor known to be small stays
// on the CPU before any CUDA starts (stays_on_cpu), ranks that share a GPU need factors that
// many times larger (ranks_per_device), and an incomplete factor kIncompleteGpuFactor times;
// a large complete factor bound for the GPU has its engine's kernels loaded beside its
// analysis (warm_up_kernels), and a smaller one's warm-up waits for the ordering's AMD count
// (DeviceWarmUp::counted).
#include <gtest/gtest.h>

#include <cstdlib>
#include <initializer_list>

#include "api/cuda_module.hpp"
#include "api/engine_choice.hpp"
#include "gpuglu/device.hpp"
#include "gpuglu/options.hpp"

namespace gpuglu::test {
namespace {

TEST(BackendChoice, a_factor_known_to_be_small_stays_on_the_cpu) {
  Options o;
  o.backend = Backend::automatic;
  o.auto_gpu_min_factor_nnz = 1000;
  const bool cuda = built_with_cuda();
  EXPECT_TRUE(api::stays_on_cpu(o, 999));
  EXPECT_EQ(api::stays_on_cpu(o, 1000), !cuda);
  EXPECT_EQ(api::stays_on_cpu(o, -1), !cuda);  // size unknown: the analysis decides
  o.auto_gpu_min_factor_nnz = -1;               // never the GPU
  EXPECT_TRUE(api::stays_on_cpu(o, 1 << 30));
  o.backend = Backend::cpu;
  EXPECT_TRUE(api::stays_on_cpu(o, 1 << 30));
  o.backend = Backend::cuda;  // asked for: never decided by size
  EXPECT_EQ(api::stays_on_cpu(o, 1), !cuda);
}

TEST(BackendChoice, an_incomplete_factor_needs_a_larger_one) {
  Options o;
  o.backend = Backend::automatic;
  o.auto_gpu_min_factor_nnz = 1000;
  o.ilu_levels = 0;
  const bool cuda = built_with_cuda();
  const int64_t least = 1000 * api::kIncompleteGpuFactor;
  EXPECT_TRUE(api::stays_on_cpu(o, least - 1, 1));
  EXPECT_EQ(api::stays_on_cpu(o, least, 1), !cuda);
}

TEST(BackendChoice, a_large_complete_gpu_factor_loads_its_engines_kernels_beside_the_analysis) {
  using api::WarmUpKernels;
  const int64_t large = api::kWarmUpKernelsMinNnz;
  const WarmUpKernels lu = built_with_cuda() ? WarmUpKernels::lu : WarmUpKernels::none;
  Options o;  // automatic, and A alone passes the GPU's size rule
  EXPECT_EQ(api::warm_up_kernels(o, large, WarmUpKernels::lu), lu);
  EXPECT_EQ(api::warm_up_kernels(o, large, WarmUpKernels::ldlt),
            built_with_cuda() ? WarmUpKernels::ldlt : WarmUpKernels::none);
  EXPECT_EQ(api::warm_up_kernels(o, large - 1, WarmUpKernels::lu), WarmUpKernels::none);  // its analysis is short
  EXPECT_EQ(api::warm_up_kernels(o, large, WarmUpKernels::none), WarmUpKernels::none);
  o.auto_gpu_min_factor_nnz = 4 * large;  // the fill decides: the GPU is not certain
  EXPECT_EQ(api::warm_up_kernels(o, large, WarmUpKernels::lu), WarmUpKernels::none);
  o.backend = Backend::cuda;  // asked for
  EXPECT_EQ(api::warm_up_kernels(o, large, WarmUpKernels::lu), lu);
  o.ilu_levels = 0;  // an incomplete factor's engine is another
  EXPECT_EQ(api::warm_up_kernels(o, large, WarmUpKernels::lu), WarmUpKernels::none);
  o.ilu_levels = -1;
  o.cuda.kernel_warm_up = false;  // switched off
  EXPECT_EQ(api::warm_up_kernels(o, large, WarmUpKernels::lu), WarmUpKernels::none);
  o.cuda.kernel_warm_up = true;
  o.backend = Backend::cpu;
  EXPECT_EQ(api::warm_up_kernels(o, large, WarmUpKernels::lu), WarmUpKernels::none);
}

TEST(BackendChoice, the_context_starts_beside_an_analysis_only_where_a_alone_passes_the_size_rule) {
  const bool cuda = built_with_cuda();
  Options o;  // automatic
  o.auto_gpu_min_factor_nnz = 32000;
  // Ranks counted as sharing the device (devices_counted_before_cuda) raise the rule.
  const int64_t least =
      32000 * api::ranks_per_device(api::devices_counted_before_cuda(), local_size_from_environment());
  EXPECT_EQ(api::warm_up_context(o, least), cuda);  // A alone passes: so does its factor
  EXPECT_FALSE(api::warm_up_context(o, least - 1));  // the analysis decides, without CUDA
  o.backend = Backend::cuda;  // asked for: whatever its size
  EXPECT_EQ(api::warm_up_context(o, 1), cuda);
  o.backend = Backend::cpu;
  EXPECT_FALSE(api::warm_up_context(o, 1 << 30));
  o.backend = Backend::automatic;
  o.auto_gpu_min_factor_nnz = -1;  // never the GPU
  EXPECT_FALSE(api::warm_up_context(o, 1 << 30));
}

TEST(BackendChoice, a_process_without_cuda_running_starts_it_only_for_a_factor_worth_it) {
  Options o;  // automatic
  o.num_threads = 4;
  const double least = api::kColdStartFlopsPerThread * 4;
  EXPECT_TRUE(api::cold_start_keeps_cpu(o, least / 2, /*cuda_running=*/false));
  EXPECT_FALSE(api::cold_start_keeps_cpu(o, least, false));
  EXPECT_FALSE(api::cold_start_keeps_cpu(o, least / 2, /*cuda_running=*/true));  // its start-up is paid
  EXPECT_FALSE(api::cold_start_keeps_cpu(o, -1.0, false));                       // flops unknown
  o.num_threads = 16;  // more CPU threads: a larger factor is still faster on them
  EXPECT_TRUE(api::cold_start_keeps_cpu(o, least, false));
  o.backend = Backend::cuda;  // asked for
  EXPECT_FALSE(api::cold_start_keeps_cpu(o, 1.0, false));
}

TEST(BackendChoice, a_smaller_a_under_automatic_waits_for_amds_count_before_its_warm_up) {
  Options o;  // automatic
  const int64_t below = api::kWarmUpCountBelowNnz - 1;
  // Once CUDA runs, a warm-up costs the factor nothing to start.
  EXPECT_EQ(api::warm_up_waits_for_count(o, below), !cuda_running());
  EXPECT_FALSE(api::warm_up_waits_for_count(o, api::kWarmUpCountBelowNnz));  // a count would only delay it
  o.backend = Backend::cuda;  // asked for: no count decides
  EXPECT_FALSE(api::warm_up_waits_for_count(o, below));
}

TEST(BackendChoice, a_waiting_warm_up_starts_only_for_a_count_past_its_margin_or_none) {
  if (!built_with_cuda()) GTEST_SKIP() << "built without CUDA: no warm-up starts";
  Options o;  // automatic
  o.num_threads = 4;
  const double bound = api::kWarmUpCountMargin * api::kColdStartFlopsPerThread * 4;
  auto started_after = [&](std::initializer_list<double> counts) {
    api::DeviceWarmUp w(o, /*skip=*/false, api::WarmUpKernels::none, /*wait_for_count=*/true);
    EXPECT_FALSE(w.started());
    for (double c : counts) w.counted(c);
    return w.started();  // the destructor joins a started thread
  };
  EXPECT_FALSE(started_after({}));          // no count yet
  EXPECT_FALSE(started_after({bound / 2}));  // the cold start weighs the factor instead
  EXPECT_TRUE(started_after({bound}));
  EXPECT_TRUE(started_after({-1.0}));             // no count made (an ordering other than AMD's)
  EXPECT_FALSE(started_after({bound / 2, bound}));  // the first count decides
  api::DeviceWarmUp at_once(o, false, api::WarmUpKernels::none);
  EXPECT_TRUE(at_once.started());
  api::DeviceWarmUp skipped(o, /*skip=*/true, api::WarmUpKernels::none, true);
  skipped.counted(bound);
  EXPECT_FALSE(skipped.started());
}

TEST(BackendChoice, an_incomplete_factor_in_a_process_without_cuda_needs_twice_its_rule) {
  Options o;  // automatic
  o.auto_gpu_min_factor_nnz = 1000;
  o.ilu_levels = 0;
  const int64_t least = api::kColdStartIncompleteFactor * api::kIncompleteGpuFactor * 1000;
  EXPECT_TRUE(api::cold_start_keeps_incomplete_on_cpu(o, least - 1, /*cuda_running=*/false));
  EXPECT_FALSE(api::cold_start_keeps_incomplete_on_cpu(o, least, false));
  EXPECT_FALSE(api::cold_start_keeps_incomplete_on_cpu(o, least - 1, /*cuda_running=*/true));
  o.ilu_levels = -1;  // a complete factor: its flops decide (cold_start_keeps_cpu)
  EXPECT_FALSE(api::cold_start_keeps_incomplete_on_cpu(o, 1, false));
}

TEST(BackendChoice, ranks_sharing_a_gpu_count_as_its_share) {
  EXPECT_EQ(api::ranks_per_device(1, 4), 4);
  EXPECT_EQ(api::ranks_per_device(2, 4), 2);
  EXPECT_EQ(api::ranks_per_device(2, 3), 2);
  EXPECT_EQ(api::ranks_per_device(4, 2), 1);  // fewer ranks than GPUs: each has its own
  EXPECT_EQ(api::ranks_per_device(0, 4), 1);  // no GPU
  EXPECT_EQ(api::ranks_per_device(2, 0), 1);  // outside MPI
  // scripts/gpuglu_rank_gpu.sh shows a rank one GPU and says how many ranks share it.
  setenv("GPUGLU_RANKS_PER_DEVICE", "3", 1);
  EXPECT_EQ(api::ranks_per_device(1, 12), 3);
  setenv("GPUGLU_RANKS_PER_DEVICE", "zero", 1);  // not a count: the rule above
  EXPECT_EQ(api::ranks_per_device(1, 12), 12);
  unsetenv("GPUGLU_RANKS_PER_DEVICE");
}

}  // namespace
}  // namespace gpuglu::test
