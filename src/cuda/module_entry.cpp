// The CUDA module's table (api/cuda_module.hpp): the one symbol libgpuglu's loader looks up.
#include "api/cuda_module.hpp"

extern "C" __attribute__((visibility("default"))) const gpuglu::CudaModuleTable* gpuglu_cuda_module_table() {
  using namespace gpuglu;
  static const CudaModuleTable table = [] {
    CudaModuleTable t;
    t.abi = kCudaModuleAbi;
    t.options_bytes = sizeof(Options);
    t.schedule_bytes = sizeof(Schedule);
    t.query_device = &cuda_entry::query_device;
    t.prepare_device = &cuda_entry::prepare_device;
    t.copy_device_to_host = &cuda_entry::copy_device_to_host;
    t.copy_host_to_device = &cuda_entry::copy_host_to_device;
    t.make_engine = &cuda_entry::make_engine<double>;
    t.make_complex_engine = &cuda_entry::make_engine<Complex>;
    t.make_dense_root = &cuda_entry::make_dense_root;
    t.make_split_device_path = &cuda_entry::make_split_device_path;
    return t;
  }();
  return &table;
}
