#include "gpuglu/options.hpp"

#include "gpuglu/schedule.hpp"

namespace gpuglu {

std::string_view to_string(Backend b) noexcept {
  switch (b) {
    case Backend::automatic: return "auto";
    case Backend::cpu: return "cpu";
    case Backend::cuda: return "cuda";
  }
  return "?";
}

std::string_view to_string(Ordering o) noexcept {
  switch (o) {
    case Ordering::amd: return "amd";
    case Ordering::colamd: return "colamd";
    case Ordering::metis: return "metis";
    case Ordering::natural: return "natural";
    case Ordering::given: return "given";
  }
  return "?";
}

std::string_view to_string(PivotPolicy p) noexcept {
  switch (p) {
    case PivotPolicy::report: return "report";
    case PivotPolicy::perturb: return "perturb";
    case PivotPolicy::repivot: return "repivot";
  }
  return "?";
}

std::string_view to_string(ShiftType t) noexcept {
  switch (t) {
    case ShiftType::none: return "none";
    case ShiftType::nonzero: return "nonzero";
    case ShiftType::positive_definite: return "positive_definite";
  }
  return "?";
}

std::string_view to_string(TrsvAnalysisSite s) noexcept { return s == TrsvAnalysisSite::gpu ? "gpu" : "cpu"; }

std::optional<Backend> parse_backend(std::string_view s) noexcept {
  for (Backend b : {Backend::automatic, Backend::cpu, Backend::cuda})
    if (s == to_string(b)) return b;
  return std::nullopt;
}

std::optional<Ordering> parse_ordering(std::string_view s) noexcept {
  for (Ordering o : {Ordering::amd, Ordering::colamd, Ordering::metis, Ordering::natural, Ordering::given})
    if (s == to_string(o)) return o;
  return std::nullopt;
}

std::optional<PivotPolicy> parse_pivot_policy(std::string_view s) noexcept {
  for (PivotPolicy p : {PivotPolicy::report, PivotPolicy::perturb, PivotPolicy::repivot})
    if (s == to_string(p)) return p;
  return std::nullopt;
}

const char* to_string(KernelMode m) noexcept {
  switch (m) {
    case KernelMode::small_block: return "small-block";
    case KernelMode::large_block: return "large-block";
    case KernelMode::stream: return "stream";
  }
  return "?";
}

int32_t Schedule::levels_in_mode(KernelMode m) const {
  int32_t c = 0;
  for (KernelMode x : level_mode) c += (x == m);
  return c;
}

}  // namespace gpuglu
