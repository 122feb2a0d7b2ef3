// gpuglu_trsv_bench's analysis timings (trsv_analysis_timing.hpp).
#include "trsv_analysis_timing.hpp"

#include <exception>
#include <vector>

#include "cuda/trsv/trsv_levels.hpp"
#include "timing.hpp"

namespace gpuglu::bench {
namespace {

bool same_levels(const trsv::TrsvAnalysis& a, const trsv::TrsvAnalysis& b) {
  return a.num_levels == b.num_levels && a.max_level_rows == b.max_level_rows && a.level == b.level &&
         a.level_ptr == b.level_ptr && a.jlev == b.jlev;
}

}  // namespace

TrsvAnalysisTiming time_trsv_analyses(const trsv::Triangle& l, const trsv::Triangle& u, trsv::TrsvAnalysis& al,
                                      trsv::TrsvAnalysis& au, int repeat, const cuda::KahnTuning& kahn) {
  TrsvAnalysisTiming r;
  std::vector<double> whole, levels;
  for (int i = 0; i <= repeat; ++i) {  // run 0 untimed (first touch of the pages)
    double t0 = now_ms();
    al = trsv::analyze(l.view());
    au = trsv::analyze(u.view());
    const double t_whole = now_ms() - t0;
    t0 = now_ms();
    trsv::compute_levels(l.view(), al);  // again, in place: the level part alone
    trsv::compute_levels(u.view(), au);
    const double t_levels = now_ms() - t0;
    if (i > 0) {
      whole.push_back(t_whole);
      levels.push_back(t_levels);
    }
  }
  r.analysis_ms = median(whole);
  r.cpu_levels_ms = median(levels);

  try {
    std::vector<double> gpu_whole, gpu_levels, kernel, copies;
    trsv::TrsvAnalysis gl, gu;
    r.gpu_equal = true;
    for (int i = 0; i <= repeat; ++i) {  // run 0 untimed (module load, first cooperative launch)
      cuda::DeviceLevelStats sl, su;
      const double t0 = now_ms();
      gl = cuda::analyze_with_device_levels(l.view(), -1, &sl, kahn);
      gu = cuda::analyze_with_device_levels(u.view(), -1, &su, kahn);
      const double t_whole = now_ms() - t0;
      r.gpu_equal = r.gpu_equal && same_levels(gl, al) && same_levels(gu, au);
      if (i == 0) continue;
      gpu_whole.push_back(t_whole);
      gpu_levels.push_back(sl.total_ms + su.total_ms);
      kernel.push_back(sl.kahn_ms + sl.sort_ms + su.kahn_ms + su.sort_ms);
      copies.push_back(sl.upload_ms + sl.download_ms + su.upload_ms + su.download_ms);
    }
    r.analysis_gpu_ms = median(gpu_whole);
    r.gpu_levels_ms = median(gpu_levels);
    r.gpu_kernel_ms = median(kernel);
    r.gpu_copy_ms = median(copies);
  } catch (const std::exception& e) {
    r.gpu_equal = false;
    r.gpu_failure = e.what();
  }
  return r;
}

}  // namespace gpuglu::bench
