#pragma once
// A benchmark's --set FIELD=VALUE: any field of gpuglu::Options by its option-table name
// ("cuda.supernodal_self_scheduled_solve=false", "refine_steps=0"), read and range-checked
// through the table (gpuglu/option_table.hpp), so a benchmark can compare settings in one run
// without a flag of its own for each.
#include <cstdlib>
#include <string>

#include "gpuglu/option_table.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu::bench {

// Sets the field that `assignment` names in o; throws Error(invalid_input) naming what is
// wrong (no '=', no such field, a value of the wrong kind or out of range).
inline void set_option_text(Options& o, const std::string& assignment) {
  const size_t eq = assignment.find('=');
  if (eq == std::string::npos) throw Error(Status::invalid_input, "--set needs FIELD=VALUE, not '" + assignment + "'");
  const std::string field = assignment.substr(0, eq), value = assignment.substr(eq + 1);
  const OptionRow* row = option_row(field);
  if (!row) throw Error(Status::invalid_input, "--set: no option field '" + field + "'");
  auto bad = [&] { return Error(Status::invalid_input, "--set " + field + ": '" + value + "' is not " + range_text(*row)); };
  char* end = nullptr;
  switch (row->kind) {
    case OptionKind::flag:
      if (value != "true" && value != "false" && value != "1" && value != "0") throw bad();
      row->set_int(o, value == "true" || value == "1" ? 1 : 0);
      break;
    case OptionKind::integer: {
      const long long v = std::strtoll(value.c_str(), &end, 10);
      if (value.empty() || *end) throw bad();
      row->set_int(o, v);
      break;
    }
    case OptionKind::real: {
      const double v = std::strtod(value.c_str(), &end);
      if (value.empty() || *end) throw bad();
      row->set_real(o, v);
      break;
    }
    case OptionKind::choice: {
      size_t i = 0;
      while (i < row->num_choices && value != row->choices[i]) ++i;
      if (i == row->num_choices) throw bad();
      row->set_int(o, static_cast<int64_t>(i));
      break;
    }
  }
  require_in_range(*row, o);
}

}  // namespace gpuglu::bench
