#pragma once
// What GPU (if any) this process can use. Works in every build: a CPU-only build
// reports no device with the reason "built without CUDA".
#include <cstdint>
#include <string>
#include <vector>

namespace gpuglu {

struct DeviceInfo {
  bool usable = false;        // a CUDA device was found and selected
  int32_t ordinal = -1;       // CUDA device ordinal
  int32_t device_count = 0;   // devices visible to this process
  std::string name;           // e.g. "NVIDIA H100 80GB HBM3"
  int32_t sm_count = 0;
  int32_t warps_per_sm = 0;   // max resident warps per SM
  int64_t memory_bytes = 0;   // total device memory
  int32_t compute_capability = 0;  // major * 10 + minor
  std::string reason;         // why not usable ("no CUDA device", "built without CUDA", CUDA error)

  // Eq. 7 of GLU3.0 divides the device's resident warps among a level's columns.
  int32_t total_warps() const { return sm_count * warps_per_sm; }
};

// Whether this library was compiled with the CUDA backend.
bool built_with_cuda() noexcept;

// Picks a device: ordinal >= 0 selects it; -1 selects local_rank % device_count, so
// MPI ranks on a node share the node's GPUs round-robin. Never throws: problems are
// reported in DeviceInfo::reason.
DeviceInfo query_device(int32_t ordinal = -1, int32_t local_rank = 0) noexcept;

// Creates the device's CUDA context (the runtime's primary context) and initializes cuBLAS
// and cuSOLVER on it (a handle each, created and destroyed) from the calling thread: the
// facades call it on a helper thread while the CPU analysis runs. Errors are left for the
// engine to meet and report. Nothing without CUDA.
void prepare_device(int32_t ordinal) noexcept;

// The node-local MPI rank from the launcher's environment (Open MPI, MPICH, Slurm, PMIx);
// 0 outside MPI.
int32_t local_rank_from_environment() noexcept;
// The number of node-local ranks from the same launchers; 0 when none says (outside MPI).
int32_t local_size_from_environment() noexcept;
// The node-local ranks per GPU that scripts/gpuglu_rank_gpu.sh exports
// (GPUGLU_RANKS_PER_DEVICE) when it shows each rank only its own GPUs; -1 when unset or not
// a count.
int32_t ranks_per_device_from_environment() noexcept;

// The devices a process places its factors on (issue 30). With at least as many node-local
// ranks as devices, rank r has device r % count alone, so ranks share the GPUs round-robin as
// query_device(-1, r) maps them. With fewer ranks than devices, rank r has every device d with
// d % local_size == r: a single process has all of them, two ranks on four GPUs two each, and
// no two ranks share one. local_size <= 0 (unknown): a process that knows no rank either
// (local_rank 0) is alone and has all the devices; one with a rank > 0 keeps r % count.
// Empty when count <= 0.
std::vector<int32_t> devices_of_rank(int32_t device_count, int32_t local_rank, int32_t local_size);

// A factor's claim on one device, held while its engine lives there, so that the factors one
// process makes (bjacobi's and asm's local blocks, fieldsplit's blocks, a GAMG coarse solve
// beside them) spread over the process's devices (devices_of_rank of this process's
// environment) instead of piling onto the first: a new claim takes the device with the fewest
// live claims, the lowest ordinal among equals. An ordinal requested (>= 0, Options::device)
// is claimed as asked. ordinal() is -1 where no device is visible (query_device then says why).
class DeviceClaim {
 public:
  DeviceClaim() = default;
  explicit DeviceClaim(int32_t requested);
  ~DeviceClaim() { release(); }
  DeviceClaim(DeviceClaim&& other) noexcept : ordinal_(other.ordinal_), held_(other.held_) { other.held_ = false; }
  DeviceClaim& operator=(DeviceClaim&& other) noexcept;
  DeviceClaim(const DeviceClaim&) = delete;
  DeviceClaim& operator=(const DeviceClaim&) = delete;
  int32_t ordinal() const noexcept { return ordinal_; }
  void release() noexcept;

 private:
  int32_t ordinal_ = -1;
  bool held_ = false;
};

// The device the next DeviceClaim(requested) would take, claiming nothing: what the analysis
// reads the device's facts from and warms up while it runs.
int32_t next_device(int32_t requested) noexcept;

}  // namespace gpuglu
