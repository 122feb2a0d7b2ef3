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

// Panels factored whole in shared memory (resident_panel_kernels.cu): nr x cols of the L panel
// and nu x cols of the U^T panel; 0 when they do not fit kMaxPanelSmemBytes.
inline size_t resident_smem_bytes(int64_t nr, int64_t nu, int64_t cols) {
  const size_t bytes = static_cast<size_t>(nr + nu) * static_cast<size_t>(cols) * sizeof(double);
  return bytes <= kMaxPanelSmemBytes ? bytes : 0;
}

// The direct Schur kernel's tiles (supernodal_kernels.cu): kSchurTile x kSchurTile entries of
// L21 U12 each, schur_tiles(nb) of them for nb rows below a supernode's columns.
constexpr int kSchurTile = 32;
inline int64_t schur_tiles(int64_t nb) {
  const int64_t side = (nb + kSchurTile - 1) / kSchurTile;
  return side * side;
}

}  // namespace gpuglu::cuda::kernels
