#pragma once
// One row per field of gpuglu::Options (nested modes.* and cuda.* included): its PETSc name,
// its range and its -help text. validate() checks every row, the PETSc adapter reads every
// row as -mat_gpuglu_<name> (petsc_plugin/options.cpp), the analysis checks the modes.* rows
// (src/analysis/levels.cpp), and a unit test holds docs/options.md to the table. The rows
// are in src/core/option_table.cpp. The defaults are not repeated there: a row reads its
// field of Options{} (default_text()).
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "gpuglu/options.hpp"

namespace gpuglu {

enum class OptionKind {
  flag,     // bool
  integer,  // int32_t or int64_t
  real,     // double, finite
  choice,   // an enum, by the names of its EnumName table
};

struct OptionRow {
  // PETSc: -mat_gpuglu_<name>. Empty: PETSc sets the field from its own factor settings,
  // named by petsc_source (e.g. -pc_factor_levels), and no -mat_gpuglu_ option exists.
  const char* name;
  const char* field;  // the Options member, e.g. "modes.total_warps"
  OptionKind kind;
  const char* help;  // PETSc's -help line
  const char* petsc_source = "";

  // Range of an integer or real row: [lo, hi], (lo, hi] when lo_open; hi infinite: no
  // upper bound. A bound that depends on another field or on the machine comes from lo_of /
  // hi_of instead (range_words then says it in words).
  double lo = 0.0;
  double hi = std::numeric_limits<double>::infinity();
  bool lo_open = false;
  int64_t (*lo_of)(const Options&) = nullptr;
  int64_t (*hi_of)(const Options&) = nullptr;
  // Integer rows: a rule besides the bounds (a power of two, a multiple of 32), and words
  // for the range the bounds alone do not say; why: appended to an out-of-range message.
  bool (*rule)(int64_t) = nullptr;
  const char* range_words = "";
  const char* why = "";

  // Access: flag (0 or 1), integer, and choice (the value's position in choices) through
  // get_int / set_int; real through get_real / set_real.
  int64_t (*get_int)(const Options&) = nullptr;
  void (*set_int)(Options&, int64_t) = nullptr;
  double (*get_real)(const Options&) = nullptr;
  void (*set_real)(Options&, double) = nullptr;
  const char* const* choices = nullptr;  // choice rows: the enum's names, in table order
  std::size_t num_choices = 0;
  int64_t type_max = 0;  // integer rows: the field type's largest value

  bool has_petsc_option() const noexcept { return name[0] != '\0'; }
  int64_t lower(const Options& o) const { return lo_of ? lo_of(o) : static_cast<int64_t>(lo); }
  // The integer upper bound; the type's largest value where the row has none.
  int64_t upper(const Options& o) const;
};

// Every row, in the order of the fields in include/gpuglu/options.hpp.
const std::vector<OptionRow>& option_table();

// The row of a field ("modes.total_warps"); nullptr when none.
const OptionRow* option_row(const std::string& field);

// "int in [-1, 1000]", "int ≥ 0", "real in (0, 1]", "bool", "`auto`, `cpu`, `cuda`": the
// values column of docs/options.md.
std::string range_text(const OptionRow& r);

// The field's value in o as docs/options.md writes it: true/false, an integer, the shortest
// decimal that reads back as the same double, or the enum's name.
std::string value_text(const OptionRow& r, const Options& o);
inline std::string default_text(const OptionRow& r) { return value_text(r, Options()); }

// Whether o's value of r lies in r's range (a real must also be finite).
bool in_range(const OptionRow& r, const Options& o);
// Throws Error(invalid_input) naming r's field, its value and its range unless in_range.
void require_in_range(const OptionRow& r, const Options& o);

// The rows of the kernel-mode thresholds (modes.*) only, which the analysis reads; throws
// as validate(const Options&) does (include/gpuglu/options.hpp).
void validate(const KernelModeThresholds& modes);

}  // namespace gpuglu
