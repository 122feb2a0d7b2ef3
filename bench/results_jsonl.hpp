#pragma once
// One benchmark result = one JSON object per line (docs/performance/results.jsonl):
// the fields scripts/perf_table.py reads, plus free-form extras (numbers or strings).
#include <cstdint>
#include <map>
#include <string>
#include <variant>

namespace gpuglu::bench {

struct Record {
  std::string benchmark;  // lu_analysis, lu_refactor, lu_solve
  std::string matrix;
  std::string kind;
  int64_t n = 0, nnz = 0, nnz_factor = 0;
  std::string ours;  // variant name, e.g. "gpuglu-cpu-1t"
  double ours_ms = 0;
  std::string peer;  // e.g. "klu_refactor"
  double peer_ms = -1;  // < 0: the peer failed (peer_note says why)
  std::string peer_note;
  std::map<std::string, std::variant<double, std::string>> extra;
};
using Extras = decltype(Record::extra);

// The date (UTC, ISO 8601) and the device ("CPU model" or "GPU name") of this run.
std::string today_utc();
std::string cpu_model();

// Appends r as one line to path (creating folders); date and device are added.
void append_record(const std::string& path, const Record& r, const std::string& date, const std::string& device);

}  // namespace gpuglu::bench
