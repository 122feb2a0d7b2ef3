// Names of TrsvKernel (include/gpuglu/trsv_kernel.hpp), for -mat_gpuglu_trsv and the benchmark.
#include "gpuglu/trsv_kernel.hpp"

namespace gpuglu {

std::string_view to_string(TrsvKernel k) noexcept {
  switch (k) {
    case TrsvKernel::automatic: return "auto";
    case TrsvKernel::levr: return "levr";
    case TrsvKernel::levc: return "levc";
    case TrsvKernel::slfr: return "slfr";
    case TrsvKernel::slfc: return "slfc";
    case TrsvKernel::cusparse: return "cusparse";
  }
  return "unknown";
}

std::optional<TrsvKernel> parse_trsv_kernel(std::string_view s) noexcept {
  for (TrsvKernel k : {TrsvKernel::automatic, TrsvKernel::levr, TrsvKernel::levc, TrsvKernel::slfr,
                       TrsvKernel::slfc, TrsvKernel::cusparse})
    if (s == to_string(k)) return k;
  return std::nullopt;
}

}  // namespace gpuglu
