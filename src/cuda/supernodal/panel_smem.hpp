#pragma once
// The panel kernels' shared-memory blocks (supernodal_kernels.cu): kPanelWidth columns staged
// at a time, so that a panel's entries are read and written once per kPanelWidth columns
// instead of once per column. panel_smem_bytes(nr, cols, limit) is what a panel of nr rows
// needs when cols columns (k0 .. jend) are factored or updated; a panel needing more than the
// device's limit (panel_smem_limit) runs the unstaged kernel (0). Both give bitwise the same
// factor. Plain C++: the plan (supernodal_plan.cpp) sizes the launches.
#include <cstddef>
#include <cstdint>

#include "cuda/engine/device_facts.hpp"

namespace gpuglu::cuda::kernels {

constexpr int kPanelWidth = 16;
// The panel kernels' dynamic shared memory: at most kMaxPanelSmemBytes, and kPanelSmemReserve
// below what a block of the device may opt in to (room for the kernels' static shared memory,
// a few hundred bytes, with a wide margin). 200 KiB on an H100 or H200 (227 KiB per block),
// 136 KiB on an A100 (163 KiB). The kernels' attribute is raised to this, per device.
constexpr size_t kMaxPanelSmemBytes = 200 * 1024;
constexpr size_t kPanelSmemReserve = 27 * 1024;
inline size_t panel_smem_limit(const DeviceFacts& facts) {
  const size_t optin = facts.max_smem_per_block_optin > 0 ? static_cast<size_t>(facts.max_smem_per_block_optin) : 0;
  const size_t usable = optin > kPanelSmemReserve ? optin - kPanelSmemReserve : 0;
  return usable < kMaxPanelSmemBytes ? usable : kMaxPanelSmemBytes;
}

// What a panel kernel's launcher calls before launching with shared memory: its attribute
// raised to panel_smem_limit on the current device (a function's attribute belongs to one
// device's context), once per kernel and device. kernel: the __global__ function's address.
inline void allow_panel_smem(const void* kernel) {
  const DeviceFacts& facts = current_device_facts();
  ensure_max_dynamic_smem(kernel, facts.device, static_cast<int>(panel_smem_limit(facts)));
}

inline size_t panel_smem_bytes(int64_t nr, int64_t cols, size_t limit) {
  const size_t bytes = static_cast<size_t>(kPanelWidth) * static_cast<size_t>(nr + cols) * sizeof(double);
  return bytes <= limit ? bytes : 0;
}

// Panels factored whole in shared memory (resident_panel_kernels.cu): nr x cols of the L panel
// and nu x cols of the U^T panel; 0 when they do not fit limit (panel_smem_limit).
inline size_t resident_smem_bytes(int64_t nr, int64_t nu, int64_t cols, size_t limit) {
  const size_t bytes = static_cast<size_t>(nr + nu) * static_cast<size_t>(cols) * sizeof(double);
  return bytes <= limit ? bytes : 0;
}

// The direct Schur kernel's tiles (supernodal_kernels.cu): kSchurTile x kSchurTile entries of
// L21 U12 each, schur_tiles(nb) of them for nb rows below a supernode's columns.
constexpr int kSchurTile = 32;
inline int64_t schur_tiles(int64_t nb) {
  const int64_t side = (nb + kSchurTile - 1) / kSchurTile;
  return side * side;
}

}  // namespace gpuglu::cuda::kernels
