#pragma once
// Diagnostic switches read from the environment by the CUDA engines (e.g. GPUGLU_NO_GRAPH=1
// launches the level loops kernel by kernel instead of as a CUDA graph).
#include <cstdlib>
#include <cstring>

namespace gpuglu::cuda {

// Set and neither empty nor "0".
inline bool env_flag(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' && std::strcmp(v, "0") != 0;
}

inline bool graph_disabled_by_env() { return env_flag("GPUGLU_NO_GRAPH"); }

}  // namespace gpuglu::cuda
