#pragma once
// The panel kernels' shared-memory blocks (supernodal_kernels.cu): kPanelWidth columns staged
// at a time, so that a panel's entries are read and written once per kPanelWidth columns
// instead of once per column. panel_smem_bytes(nr, cols) is what a panel of nr rows needs
// when cols columns (k0 .. jend) are factored or updated; a panel needing more than
// kMaxPanelSmemBytes runs the unstaged kernel (0). Both give bitwise the same factor. Plain
// C++: the plan (supernodal_plan.cpp) sizes the launches.
#include <cstddef>
#include <cstdint>

namespace gpuglu::cuda::kernels {

constexpr int kPanelWidth = 16;
constexpr size_t kMaxPanelSmemBytes = 200 * 1024;  // of an H100's 227 KB per block

inline size_t panel_smem_bytes(int64_t nr, int64_t cols) {
  const size_t bytes = static_cast<size_t>(kPanelWidth) * static_cast<size_t>(nr + cols) * sizeof(double);
  return bytes <= kMaxPanelSmemBytes ? bytes : 0;
}

}  // namespace gpuglu::cuda::kernels
