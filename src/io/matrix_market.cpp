// Matrix Market coordinate reader and writer (gpuglu/matrix_market.hpp).
// The reader is strict: every defect becomes Error(io_error or unsupported) with
// "name:line: what", because a silently misread matrix shows up much later as a
// wrong factorization that nobody traces back to the file.
#include "gpuglu/matrix_market.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <fstream>
#include <istream>
#include <limits>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "gpuglu/matrix_ops.hpp"
#include "gpuglu/status.hpp"

namespace gpuglu {
namespace {

enum class Field { real, integer, pattern };

struct Header {
  Field field = Field::real;
  MmSymmetry symmetry = MmSymmetry::general;
};

// Line-oriented input that knows where it is, so every error can name file:line.
class LineReader {
 public:
  LineReader(std::istream& in, std::string name) : in_(in), name_(std::move(name)) {}

  // Next line that is neither blank nor a % comment; false at end of input.
  bool next_data_line(std::string_view* out) {
    while (next_line()) {
      const size_t p = line_.find_first_not_of(" \t\r");
      if (p == std::string::npos || line_[p] == '%') continue;
      *out = line_;
      return true;
    }
    return false;
  }
  bool next_line() {
    if (!std::getline(in_, line_)) return false;
    ++lineno_;
    return true;
  }
  const std::string& line() const { return line_; }

  [[noreturn]] void fail(const std::string& what, Status s = Status::io_error) const {
    throw Error(s, name_ + ":" + std::to_string(lineno_) + ": " + what);
  }
  // For errors found after the last line (premature end of file).
  [[noreturn]] void fail_at_end(const std::string& what) const {
    throw Error(Status::io_error, name_ + ":" + std::to_string(lineno_ + 1) + ": " + what);
  }

 private:
  std::istream& in_;
  std::string name_;
  std::string line_;
  long long lineno_ = 0;
};

// Splits on blanks; returns how many tokens there were (may exceed N: only the
// first N are kept, the count still tells the caller about trailing garbage).
template <size_t N>
size_t split(std::string_view s, std::array<std::string_view, N>* tok) {
  size_t count = 0, p = 0;
  while (true) {
    p = s.find_first_not_of(" \t\r", p);
    if (p == std::string_view::npos) break;
    size_t e = s.find_first_of(" \t\r", p);
    if (e == std::string_view::npos) e = s.size();
    if (count < N) (*tok)[count] = s.substr(p, e - p);
    ++count;
    p = e;
  }
  return count;
}

std::string lower(std::string_view s) {
  std::string r(s);
  for (char& c : r) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return r;
}

bool parse_int(std::string_view t, long long* v) {
  if (!t.empty() && t[0] == '+') t.remove_prefix(1);
  const auto r = std::from_chars(t.data(), t.data() + t.size(), *v);
  return r.ec == std::errc() && r.ptr == t.data() + t.size();
}

// from_chars is locale-independent (strtod is not); NaN and Inf are read as such
// on purpose: rejecting them is the solver's job and gives a better message.
bool parse_real(std::string_view t, double* v) {
  if (!t.empty() && t[0] == '+') t.remove_prefix(1);
  const auto r = std::from_chars(t.data(), t.data() + t.size(), *v);
  if (r.ptr != t.data() + t.size()) return false;
  if (r.ec == std::errc::result_out_of_range) {  // tiny or huge literal: keep its sign and scale
    *v = std::strtod(std::string(t).c_str(), nullptr);
    return true;
  }
  return r.ec == std::errc();
}

Header read_banner(LineReader& rd) {
  if (!rd.next_line()) rd.fail_at_end("empty file, expected a %%MatrixMarket banner");
  std::array<std::string_view, 5> t;
  const size_t n = split(rd.line(), &t);
  if (n == 0 || lower(t[0]) != "%%matrixmarket")
    rd.fail("missing '%%MatrixMarket' banner on the first line");
  if (n != 5) rd.fail("banner must be '%%MatrixMarket matrix coordinate <field> <symmetry>'");
  if (lower(t[1]) != "matrix") rd.fail("object '" + std::string(t[1]) + "' is not supported", Status::unsupported);
  const std::string format = lower(t[2]);
  if (format == "array") rd.fail("dense 'array' format is not supported, only 'coordinate'", Status::unsupported);
  if (format != "coordinate") rd.fail("unknown format '" + std::string(t[2]) + "'");

  Header h;
  const std::string field = lower(t[3]);
  if (field == "real" || field == "double") h.field = Field::real;
  else if (field == "integer") h.field = Field::integer;
  else if (field == "pattern") h.field = Field::pattern;
  else if (field == "complex") rd.fail("'complex' matrices are not supported", Status::unsupported);
  else rd.fail("unknown field '" + std::string(t[3]) + "'");

  const std::string sym = lower(t[4]);
  if (sym == "general") h.symmetry = MmSymmetry::general;
  else if (sym == "symmetric") h.symmetry = MmSymmetry::symmetric;
  else if (sym == "skew-symmetric") h.symmetry = MmSymmetry::skew_symmetric;
  else if (sym == "hermitian") rd.fail("'hermitian' matrices are not supported", Status::unsupported);
  else rd.fail("unknown symmetry '" + std::string(t[4]) + "'");
  return h;
}

struct SizeLine {
  int32_t nrows = 0, ncols = 0;
  long long nnz = 0;
};

SizeLine read_size_line(LineReader& rd, const Header& h) {
  std::string_view line;
  if (!rd.next_data_line(&line)) rd.fail_at_end("missing size line 'rows columns entries'");
  std::array<std::string_view, 3> t;
  long long m = 0, n = 0, nnz = 0;
  if (split(line, &t) != 3 || !parse_int(t[0], &m) || !parse_int(t[1], &n) || !parse_int(t[2], &nnz))
    rd.fail("size line must hold three integers 'rows columns entries'");
  if (m < 0 || n < 0 || nnz < 0) rd.fail("negative size on the size line");
  constexpr long long imax = std::numeric_limits<int32_t>::max();
  if (m > imax || n > imax) rd.fail("dimensions do not fit 32-bit indices", Status::index_overflow);
  // Symmetric storage expands to up to twice the entries, all held in int32 offsets.
  const long long stored_max = h.symmetry == MmSymmetry::general ? nnz : 2 * nnz;
  if (nnz > imax || stored_max > imax) rd.fail("entry count does not fit 32-bit indices", Status::index_overflow);
  if (nnz > m * n) rd.fail("claims " + std::to_string(nnz) + " entries, more than rows x columns");
  if (h.symmetry != MmSymmetry::general && m != n) rd.fail("a symmetric or skew-symmetric matrix must be square");
  return {static_cast<int32_t>(m), static_cast<int32_t>(n), nnz};
}

int32_t read_index(LineReader& rd, std::string_view tok, int32_t limit, const char* what) {
  long long v = 0;
  if (!parse_int(tok, &v)) rd.fail(std::string(what) + " index '" + std::string(tok) + "' is not an integer");
  if (v < 1 || v > limit)
    rd.fail(std::string(what) + " index " + std::to_string(v) + " out of range [1, " + std::to_string(limit) + "]");
  return static_cast<int32_t>(v - 1);
}

double read_value(LineReader& rd, std::string_view tok, Field field) {
  if (field == Field::integer) {
    long long v = 0;
    if (!parse_int(tok, &v)) rd.fail("value '" + std::string(tok) + "' is not an integer");
    return static_cast<double>(v);
  }
  double v = 0;
  if (!parse_real(tok, &v)) rd.fail("value '" + std::string(tok) + "' is not a number");
  return v;
}

// Appends the entry and, for symmetric storage, its mirror image.
void add_entry(LineReader& rd, const Header& h, int32_t i, int32_t j, double v,
               std::vector<Triplet<int32_t, double>>* out) {
  if (h.symmetry != MmSymmetry::general && i < j)
    rd.fail("entry (" + std::to_string(i + 1) + ", " + std::to_string(j + 1) +
            ") above the diagonal; symmetric storage holds the lower triangle only");
  if (h.symmetry == MmSymmetry::skew_symmetric && i == j) {
    if (v != 0.0) rd.fail("nonzero diagonal entry in a skew-symmetric matrix");
    return;  // an explicit zero on the diagonal carries no information
  }
  out->push_back({i, j, v});
  if (i != j && h.symmetry == MmSymmetry::symmetric) out->push_back({j, i, v});
  if (i != j && h.symmetry == MmSymmetry::skew_symmetric) out->push_back({j, i, -v});
}

}  // namespace

CsrMatrix<int32_t, double> read_matrix_market(std::istream& in, const std::string& name) {
  LineReader rd(in, name);
  const Header h = read_banner(rd);
  const SizeLine size = read_size_line(rd, h);

  std::vector<Triplet<int32_t, double>> entries;
  // The claimed count is untrusted: a corrupt size line must not allocate gigabytes.
  constexpr long long reserve_cap = 1 << 22;
  const long long factor = h.symmetry == MmSymmetry::general ? 1 : 2;
  entries.reserve(static_cast<size_t>(std::min(size.nnz * factor, reserve_cap)));

  const size_t want = h.field == Field::pattern ? 2 : 3;
  long long seen = 0;
  std::string_view line;
  while (rd.next_data_line(&line)) {
    if (seen == size.nnz) rd.fail("more entries than the " + std::to_string(size.nnz) + " on the size line");
    std::array<std::string_view, 3> t;
    const size_t n = split(line, &t);
    if (n != want)
      rd.fail("expected " + std::to_string(want) + " fields 'row column" + (want == 3 ? " value'" : "'") +
              ", found " + std::to_string(n));
    const int32_t i = read_index(rd, t[0], size.nrows, "row");
    const int32_t j = read_index(rd, t[1], size.ncols, "column");
    const double v = h.field == Field::pattern ? 1.0 : read_value(rd, t[2], h.field);
    add_entry(rd, h, i, j, v, &entries);
    ++seen;
  }
  if (in.bad()) rd.fail_at_end("read error");
  if (seen < size.nnz)
    rd.fail_at_end("unexpected end of file after " + std::to_string(seen) + " of " + std::to_string(size.nnz) +
                   " entries");
  return csr_from_triplets<int32_t, double>(size.nrows, size.ncols, entries);
}

CsrMatrix<int32_t, double> read_matrix_market(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error(Status::io_error, path + ": cannot open for reading");
  return read_matrix_market(in, path);
}

namespace {

// True when a(i,j) == sign * a(j,i) for all i, j, missing entries counting as zero.
// Works on a canonical (sorted, duplicate-free) copy so any valid input is accepted.
bool has_symmetry(const CsrMatrix<int32_t, double>& a, double sign) {
  if (a.nrows != a.ncols) return false;
  const CsrMatrix<int32_t, double> t = transpose(a.view());
  for (int32_t i = 0; i < a.nrows; ++i) {
    int32_t p = a.rowptr[i], q = t.rowptr[i];
    const int32_t pe = a.rowptr[i + 1], qe = t.rowptr[i + 1];
    while (p < pe || q < qe) {
      const int32_t cp = p < pe ? a.colind[p] : a.ncols;
      const int32_t cq = q < qe ? t.colind[q] : a.ncols;
      const double va = cp <= cq ? a.values[p] : 0.0;
      const double vt = cq <= cp ? t.values[q] : 0.0;
      if (va != sign * vt) return false;
      if (cp <= cq) ++p;
      if (cq <= cp) ++q;
    }
  }
  return true;
}

CsrMatrix<int32_t, double> canonical_copy(const CsrView<int32_t, double>& a) {
  validate(a, false);
  std::vector<Triplet<int32_t, double>> e;
  e.reserve(static_cast<size_t>(a.nnz()));
  for (int32_t i = 0; i < a.nrows; ++i)
    for (int32_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) e.push_back({i, a.colind[p], a.values ? a.values[p] : 1.0});
  return csr_from_triplets<int32_t, double>(a.nrows, a.ncols, e);
}

void put_number(std::ostream& out, double v) {
  // to_chars: locale-independent; 17 significant digits round-trip every double.
  char buf[40];
  const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, 17);
  out.write(buf, r.ptr - buf);
}

}  // namespace

void write_matrix_market(std::ostream& out, const CsrView<int32_t, double>& a, MmSymmetry symmetry) {
  const CsrMatrix<int32_t, double> c = canonical_copy(a);
  const char* sym = "general";
  bool lower_only = false;
  if (symmetry == MmSymmetry::symmetric) {
    if (!has_symmetry(c, 1.0)) throw Error(Status::invalid_input, "write_matrix_market: matrix is not symmetric");
    sym = "symmetric";
    lower_only = true;
  } else if (symmetry == MmSymmetry::skew_symmetric) {
    if (!has_symmetry(c, -1.0))
      throw Error(Status::invalid_input, "write_matrix_market: matrix is not skew-symmetric");
    sym = "skew-symmetric";
    lower_only = true;
  }
  const bool pattern = a.values == nullptr;
  long long count = 0;
  for (int32_t i = 0; i < c.nrows; ++i)
    for (int32_t p = c.rowptr[i]; p < c.rowptr[i + 1]; ++p)
      if (!lower_only || c.colind[p] < i || (c.colind[p] == i && symmetry == MmSymmetry::symmetric)) ++count;

  out << "%%MatrixMarket matrix coordinate " << (pattern ? "pattern " : "real ") << sym << '\n';
  out << c.nrows << ' ' << c.ncols << ' ' << count << '\n';
  for (int32_t i = 0; i < c.nrows; ++i) {
    for (int32_t p = c.rowptr[i]; p < c.rowptr[i + 1]; ++p) {
      const int32_t j = c.colind[p];
      if (lower_only && (j > i || (j == i && symmetry == MmSymmetry::skew_symmetric))) continue;
      out << i + 1 << ' ' << j + 1;
      if (!pattern) {
        out << ' ';
        put_number(out, c.values[p]);
      }
      out << '\n';
    }
  }
  if (!out) throw Error(Status::io_error, "write_matrix_market: write failed");
}

void write_matrix_market(const std::string& path, const CsrView<int32_t, double>& a, MmSymmetry symmetry) {
  std::ofstream out(path);
  if (!out) throw Error(Status::io_error, path + ": cannot open for writing");
  write_matrix_market(out, a, symmetry);
  out.close();
  if (!out) throw Error(Status::io_error, path + ": write failed");
}

}  // namespace gpuglu
