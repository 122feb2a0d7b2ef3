// The one option table (include/gpuglu/option_table.hpp): a row per Options field, each
// reaching its own field; validate() reads its ranges; docs/options.md agrees with it; and the
// one resolver of the automatic choices (src/core/automatic_options.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/automatic_options.hpp"
#include "gpuglu/option_table.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu::test {
namespace {

// A value of r's type other than its value in o, in range where the range allows one.
void change(const OptionRow& r, Options& o) {
  switch (r.kind) {
    case OptionKind::flag: r.set_int(o, 1 - r.get_int(o)); break;
    case OptionKind::choice: r.set_int(o, (r.get_int(o) + 1) % static_cast<int64_t>(r.num_choices)); break;
    case OptionKind::integer: {
      const int64_t v = r.get_int(o);
      r.set_int(o, v + 1 <= r.upper(o) ? v + 1 : v - 1);
      break;
    }
    case OptionKind::real: r.set_real(o, r.get_real(o) == 0.5 ? 0.25 : 0.5); break;
  }
}

TEST(OptionTable, each_row_reaches_its_own_field) {
  std::set<std::string> fields, names;
  for (const OptionRow& r : option_table()) {
    EXPECT_TRUE(fields.insert(r.field).second) << r.field << " has two rows";
    if (r.has_petsc_option()) {
      EXPECT_TRUE(names.insert(r.name).second) << "-mat_gpuglu_" << r.name << " names two rows";
    } else {
      EXPECT_NE(std::string(r.petsc_source), "") << r.field << ": neither a -mat_gpuglu_ option nor a PETSc source";
    }
    EXPECT_NE(std::string(r.help), "") << r.field;
    // Changing this row's field changes no other row's: no two rows share a field.
    const Options base;
    Options o = base;
    change(r, o);
    EXPECT_NE(value_text(r, o), value_text(r, base)) << r.field;
    for (const OptionRow& other : option_table()) {
      if (&other != &r) EXPECT_EQ(value_text(other, o), value_text(other, base)) << r.field << " moved " << other.field;
    }
  }
  // Every field of Options, of its modes and of its cuda: counted by hand, so that a new
  // field without a row fails here.
  EXPECT_EQ(option_table().size(), 53u);
  EXPECT_EQ(option_row("modes.total_warps")->name, std::string("total_warps"));
  EXPECT_EQ(option_row("no_such_field"), nullptr);
}

TEST(OptionTable, defaults_are_in_range) {
  const Options o;
  for (const OptionRow& r : option_table()) EXPECT_TRUE(in_range(r, o)) << r.field << " = " << default_text(r);
  EXPECT_NO_THROW(validate(o));
  EXPECT_EQ(o.modes.total_warps, 0);  // the device's, resolved before the analysis
}

std::string validate_message(const Options& o) {
  try {
    validate(o);
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::invalid_input);
    return e.what();
  }
  return "";
}

TEST(OptionTable, validate_names_each_field_outside_its_range) {
  for (const OptionRow& r : option_table()) {
    Options o;
    if (r.kind == OptionKind::integer) {
      if (r.lower(o) == std::numeric_limits<int32_t>::min()) continue;
      r.set_int(o, r.lower(o) - 1);
    } else if (r.kind == OptionKind::real) {
      r.set_real(o, std::nan(""));
    } else {
      continue;
    }
    const std::string message = validate_message(o);
    EXPECT_NE(message.find(std::string("option ") + r.field + " "), std::string::npos) << r.field << ": " << message;
    EXPECT_NE(message.find(range_text(r)), std::string::npos) << message;
  }
  Options o;
  o.modes.max_block_threads = 96;  // in [32, 1024], not a power of two
  EXPECT_NE(validate_message(o).find("modes.max_block_threads"), std::string::npos);
  o = Options();
  o.cuda.supernodal_solve_threads = 48;
  EXPECT_NE(validate_message(o).find("cuda.supernodal_solve_threads"), std::string::npos);
  o = Options();
  o.modes.min_warps = 8;
  o.modes.max_warps = 4;  // below min_warps
  EXPECT_NE(validate_message(o).find("modes.max_warps"), std::string::npos);
  o = Options();
  o.num_threads = max_cpu_threads() + 1;
  EXPECT_NE(validate_message(o).find("num_threads"), std::string::npos);
}

TEST(OptionTable, the_analysis_checks_the_modes_rows_only) {
  KernelModeThresholds m;
  EXPECT_NO_THROW(validate(m));
  m.max_warps = 64;
  EXPECT_THROW(validate(m), Error);
  m = KernelModeThresholds();
  m.total_warps = -1;
  EXPECT_THROW(validate(m), Error);
}

TEST(OptionTable, range_and_default_texts) {
  EXPECT_EQ(range_text(*option_row("refine_steps")), "int in [-1, 1000]");
  EXPECT_EQ(range_text(*option_row("perturbation")), "real in (0, 1]");
  EXPECT_EQ(default_text(*option_row("perturbation")), "1.4901161193847656e-8");
  EXPECT_EQ(range_text(*option_row("check_growth")), "real in [1, 1e300]");
  EXPECT_EQ(range_text(*option_row("backend")), "`auto`, `cpu`, `cuda`");
  EXPECT_EQ(default_text(*option_row("pivot_policy")), "auto");
  EXPECT_EQ(default_text(*option_row("modes.stream_max_columns")), "16");
}

// The cells of a markdown table row; "\|" inside a cell is not a separator.
std::vector<std::string> cells_of(const std::string& line) {
  std::vector<std::string> cells;
  std::string cell;
  for (size_t i = 1; i < line.size(); ++i) {
    if (line[i] == '|' && line[i - 1] != '\\') {
      const size_t b = cell.find_first_not_of(' '), e = cell.find_last_not_of(' ');
      cells.push_back(b == std::string::npos ? "" : cell.substr(b, e - b + 1));
      cell.clear();
    } else {
      cell += line[i];
    }
  }
  return cells;
}

// docs/options.md's table: every row of the option table appears, named as the adapter reads
// it, with its range and default; and every documented field is a row (the adapter's own
// options, which map onto no field, say so).
TEST(OptionTable, docs_options_md_agrees_with_the_table) {
  std::ifstream in(std::string(GPUGLU_SOURCE_DIR) + "/docs/options.md");
  ASSERT_TRUE(in) << GPUGLU_SOURCE_DIR << "/docs/options.md";
  std::map<std::string, std::vector<std::string>> doc;  // field cell -> cells
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("| `-", 0) != 0) continue;
    const std::vector<std::string> cells = cells_of(line);
    ASSERT_GE(cells.size(), 4u) << line;
    if (cells[1] == "(PETSc adapter only)") continue;
    EXPECT_TRUE(doc.emplace(cells[1], cells).second) << cells[1] << " is documented twice";
  }
  for (const OptionRow& r : option_table()) {
    const std::string field = std::string("`") + r.field + "`";
    const auto it = doc.find(field);
    const std::string option = r.has_petsc_option() ? std::string("`-mat_gpuglu_") + r.name + "`"
                                                    : std::string("`") + r.petsc_source + "`";
    const std::string values = range_text(r) + " (`" + default_text(r) + "`)";
    if (it == doc.end()) {
      ADD_FAILURE() << "docs/options.md lacks the row\n| " << option << " | " << field << " | " << values << " | ... |";
      continue;
    }
    EXPECT_EQ(it->second[0], option) << r.field;
    EXPECT_EQ(it->second[2], values) << r.field;
    doc.erase(it);
  }
  for (const auto& [field, cells] : doc) ADD_FAILURE() << "docs/options.md documents " << field << ", no Options field";
}

TEST(AutomaticOptions, lu_engine_follows_the_one_rule) {
  // Supernodal for a real complete LU whatever the backend or device; column for complex
  // scalars and ILU; an explicit engine stays.
  const AutomaticFacts no_device;
  AutomaticFacts gpu;
  gpu.device_usable = true;
  gpu.device_warps = 8448;
  AutomaticFacts complex_gpu = gpu;
  complex_gpu.complex = true;
  Options o;
  EXPECT_EQ(resolve_lu_engine(o, gpu), LuEngine::supernodal);
  EXPECT_EQ(resolve_lu_engine(o, no_device), LuEngine::supernodal);
  EXPECT_EQ(resolve_lu_engine(o, complex_gpu), LuEngine::column);
  o.auto_gpu_min_factor_nnz = -1;  // never the GPU
  EXPECT_EQ(resolve_lu_engine(o, gpu), LuEngine::supernodal);
  o = Options();
  o.ilu_levels = 0;
  EXPECT_EQ(resolve_lu_engine(o, gpu), LuEngine::column);
  o = Options();
  o.backend = Backend::cuda;
  EXPECT_EQ(resolve_lu_engine(o, no_device), LuEngine::supernodal);
  o.backend = Backend::cpu;
  EXPECT_EQ(resolve_lu_engine(o, gpu), LuEngine::supernodal);
  EXPECT_EQ(resolve_lu_engine(o, complex_gpu), LuEngine::column);
  o.lu_engine = LuEngine::column;  // an explicit engine stays
  EXPECT_EQ(resolve_lu_engine(o, gpu), LuEngine::column);
}

TEST(AutomaticOptions, ldlt_engine_is_supernodal_for_a_complete_ldlt_on_either_backend) {
  AutomaticFacts gpu;
  gpu.device_usable = true;
  AutomaticFacts complex_gpu = gpu;
  complex_gpu.complex = true;
  Options o;
  EXPECT_EQ(resolve_ldlt_engine(o, gpu), LuEngine::supernodal);
  EXPECT_EQ(resolve_ldlt_engine(o, AutomaticFacts{}), LuEngine::supernodal);
  EXPECT_EQ(resolve_ldlt_engine(o, complex_gpu), LuEngine::supernodal);  // in real form
  o.backend = Backend::cpu;
  EXPECT_EQ(resolve_ldlt_engine(o, gpu), LuEngine::supernodal);
  o.ilu_levels = 0;  // ICC(0)
  EXPECT_EQ(resolve_ldlt_engine(o, gpu), LuEngine::column);
  o = Options();
  o.ldlt_engine = LuEngine::column;  // an explicit engine stays
  EXPECT_EQ(resolve_ldlt_engine(o, gpu), LuEngine::column);
  EXPECT_EQ(resolve_automatic(o, gpu).ldlt_engine, LuEngine::column);
}

TEST(AutomaticOptions, total_warps_zero_becomes_the_device_s) {
  AutomaticFacts gpu;
  gpu.device_usable = true;
  gpu.device_warps = 114 * 64;
  Options o;
  EXPECT_EQ(resolve_automatic(o, gpu).modes.total_warps, 114 * 64);
  EXPECT_EQ(resolve_automatic(o, AutomaticFacts{}).modes.total_warps, 0);  // no device: the CPU never reads it
  o.modes.total_warps = 4096;  // an explicit value stays
  EXPECT_EQ(resolve_automatic(o, gpu).modes.total_warps, 4096);
  // Everything else passes through.
  o.refine_steps = 7;
  EXPECT_EQ(resolve_automatic(o, gpu).refine_steps, 7);
}

}  // namespace
}  // namespace gpuglu::test
