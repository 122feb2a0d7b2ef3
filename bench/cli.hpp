#pragma once
// The benchmarks' command lines: one reader of "--key value" arguments, so that every
// benchmark rejects a missing or malformed value the same way, through its own usage().
#include <cstdlib>
#include <utility>
#include <sstream>
#include <string>
#include <vector>

#include "bench_matrices.hpp"

namespace gpuglu::bench {

class ArgReader {
 public:
  using Usage = void (*)(const std::string& why);  // prints the usage and exits

  ArgReader(int argc, char** argv, Usage usage) : argc_(argc), argv_(argv), usage_(usage) {}

  // Moves to the next key; false after the last argument.
  bool next() {
    if (++i_ >= argc_) return false;
    key_ = argv_[i_];
    return true;
  }
  const std::string& key() const { return key_; }

  // The current key's value (the next argument).
  std::string value() {
    if (i_ + 1 >= argc_) fail("missing value after " + key_);
    return argv_[++i_];
  }
  int integer(long min, long max = 1000000) {
    const std::string v = value();
    char* end = nullptr;
    const long x = std::strtol(v.c_str(), &end, 10);
    if (v.empty() || *end || x < min || x > max)
      fail(key_ + " needs an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "], not '" + v + "'");
    return static_cast<int>(x);
  }
  // The current key's comma-separated value, appended to out (empty items skipped).
  void append_list(std::vector<std::string>& out) {
    std::stringstream s(value());
    for (std::string item; std::getline(s, item, ',');)
      if (!item.empty()) out.push_back(item);
  }
  // --matrix SPEC|FILE and --matrix-dir DIR, which every benchmark takes: true when the
  // current key was one of them (its matrices appended to out).
  bool matrix_option(std::vector<std::string>& out) {
    if (key_ == "--matrix") {
      out.push_back(value());
      return true;
    }
    if (key_ == "--matrix-dir") {
      for (std::string& f : matrix_files_below(value())) out.push_back(std::move(f));
      return true;
    }
    return false;
  }
  double positive() {
    const std::string v = value();
    char* end = nullptr;
    const double x = std::strtod(v.c_str(), &end);
    if (v.empty() || *end || !(x > 0)) fail(key_ + " needs a positive number, not '" + v + "'");
    return x;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    usage_(why);
    std::exit(2);  // usage() exits; this only keeps the promise of [[noreturn]]
  }

  int argc_;
  char** argv_;
  Usage usage_;
  int i_ = 0;
  std::string key_;
};

}  // namespace gpuglu::bench
