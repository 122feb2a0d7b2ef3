#include "results_jsonl.hpp"

#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace gpuglu::bench {

namespace {

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) continue;
    out += c;
  }
  return out + "\"";
}

std::string number(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

}  // namespace

std::string today_utc() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", &tm);
  return buf;
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(' ', colon + 1));
    }
  return "unknown CPU";
}

void append_record(const std::string& path, const Record& r, const std::string& date, const std::string& device) {
  std::ostringstream o;
  o << "{\"date\": " << quoted(date) << ", \"device\": " << quoted(device) << ", \"benchmark\": " << quoted(r.benchmark)
    << ", \"matrix\": " << quoted(r.matrix) << ", \"kind\": " << quoted(r.kind) << ", \"n\": " << r.n
    << ", \"nnz\": " << r.nnz << ", \"nnz_factor\": " << r.nnz_factor << ", \"ours\": " << quoted(r.ours)
    << ", \"ours_ms\": " << number(r.ours_ms) << ", \"peer\": " << quoted(r.peer)
    << ", \"peer_ms\": " << (r.peer_ms < 0 ? std::string("null") : number(r.peer_ms));
  if (!r.peer_note.empty()) o << ", \"peer_note\": " << quoted(r.peer_note);
  for (const auto& [key, value] : r.extra) {
    o << ", " << quoted(key) << ": ";
    if (const double* d = std::get_if<double>(&value))
      o << number(*d);
    else
      o << quoted(std::get<std::string>(value));
  }
  o << "}\n";
  const std::filesystem::path p(path);
  if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path());
  std::ofstream out(path, std::ios::app);
  if (!out) throw std::runtime_error("cannot append to " + path);
  out << o.str();
}

}  // namespace gpuglu::bench
