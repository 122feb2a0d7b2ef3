#include "gpuglu/options.hpp"

#include <omp.h>

#include <cmath>
#include <string>

#include "gpuglu/schedule.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu {

int32_t max_cpu_threads() noexcept { return 4 * omp_get_num_procs(); }

namespace {

void require(bool ok, const char* field, const std::string& range, double value) {
  if (!ok)
    throw Error(Status::invalid_input, std::string("option ") + field + " = " + std::to_string(value) +
                                           " is outside its range " + range);
}

// A threshold must be a number, not NaN or Inf, within [lo, hi].
void require_finite(double v, const char* field, double lo, double hi, const std::string& range) {
  require(std::isfinite(v) && v >= lo && v <= hi, field, range, v);
}

}  // namespace

void validate(const Options& o) {
  require(o.auto_gpu_min_factor_nnz >= -1, "auto_gpu_min_factor_nnz", ">= -1", double(o.auto_gpu_min_factor_nnz));
  require(o.ilu_levels >= -1, "ilu_levels", ">= -1", o.ilu_levels);
  require_finite(o.shift_amount, "shift_amount", 0.0, 1e300, "[0, 1e300], finite");
  require(o.device >= -1, "device", ">= -1", o.device);
  require_finite(o.pivot_threshold, "pivot_threshold", 0.0, 1.0, "[0, 1]");
  require_finite(o.zero_pivot, "zero_pivot", 0.0, 1e300, "[0, 1e300], finite");
  require(std::isfinite(o.perturbation) && o.perturbation > 0.0 && o.perturbation <= 1.0, "perturbation", "(0, 1]",
          o.perturbation);
  require(o.refine_steps >= -1 && o.refine_steps <= 1000, "refine_steps", "[-1, 1000]", o.refine_steps);
  require_finite(o.refine_tolerance, "refine_tolerance", 0.0, 1.0, "[0, 1]");
  require_finite(o.backward_error_tolerance, "backward_error_tolerance", 0.0, 1.0, "[0, 1]");
  require_finite(o.check_growth, "check_growth", 1.0, 1e300, "[1, 1e300]");
  const int32_t cap = max_cpu_threads();
  require(o.num_threads >= 0 && o.num_threads <= cap, "num_threads",
          "[0, " + std::to_string(cap) + "] (0: OpenMP's default; at most 4 per processor OpenMP sees)", o.num_threads);
  const KernelModeThresholds& m = o.modes;
  require(m.stream_max_columns >= 0, "modes.stream_max_columns", ">= 0", m.stream_max_columns);
  require(m.total_warps >= 1, "modes.total_warps", ">= 1", m.total_warps);
  require(m.min_warps >= 1 && m.min_warps <= 32, "modes.min_warps", "[1, 32]", m.min_warps);
  require(m.max_warps >= m.min_warps && m.max_warps <= 32, "modes.max_warps", "[min_warps, 32]", m.max_warps);
  require(m.max_block_threads >= 32 && m.max_block_threads <= 1024 && (m.max_block_threads & (m.max_block_threads - 1)) == 0,
          "modes.max_block_threads", "a power of two in [32, 1024]", m.max_block_threads);
  require(m.rows_per_thread >= 1 && m.rows_per_thread <= 1024, "modes.rows_per_thread", "[1, 1024]", m.rows_per_thread);
  const CudaTuning& c = o.cuda;
  require(c.trsv_run_passes >= -1 && c.trsv_run_passes <= 64, "cuda.trsv_run_passes", "[-1, 64]", c.trsv_run_passes);
  require(c.kahn_blocks_per_sm >= -1 && c.kahn_blocks_per_sm <= 64, "cuda.kahn_blocks_per_sm", "[-1, 64]",
          c.kahn_blocks_per_sm);
  require(c.kahn_narrow_rows >= -1 && c.kahn_narrow_rows <= 1024, "cuda.kahn_narrow_rows", "[-1, 1024]",
          c.kahn_narrow_rows);
  // The stepped trailing update's grid has a row per supernode (gridDim.y <= 65535).
  require(c.supernodal_stepped_max_nodes >= 0 && c.supernodal_stepped_max_nodes <= 65535,
          "cuda.supernodal_stepped_max_nodes", "[0, 65535]", c.supernodal_stepped_max_nodes);
  require(c.supernodal_stepped_min_entries >= 0, "cuda.supernodal_stepped_min_entries", ">= 0",
          c.supernodal_stepped_min_entries);
  require(c.supernodal_dense_min_cols >= 0, "cuda.supernodal_dense_min_cols", ">= 0", c.supernodal_dense_min_cols);
  require(c.supernodal_streams >= 1 && c.supernodal_streams <= 32, "cuda.supernodal_streams", "[1, 32]",
          c.supernodal_streams);
  const int32_t st = c.supernodal_solve_threads;
  require(st == -1 || (st >= 32 && st <= 512 && st % 32 == 0), "cuda.supernodal_solve_threads",
          "-1 or a multiple of 32 in [32, 512]", st);
}

int32_t Schedule::levels_in_mode(KernelMode m) const {
  int32_t c = 0;
  for (KernelMode x : level_mode) c += (x == m);
  return c;
}

}  // namespace gpuglu
