#pragma once
// Matrix Market (coordinate) reader and writer: real / integer / pattern fields,
// general / symmetric / skew-symmetric symmetry. Symmetric storage is expanded to
// the full matrix on read. Malformed input throws Error(io_error) naming the file
// and line ("file.mtx:17: column index 0 out of range [1, 5]"); never a crash.
#include <cstdint>
#include <iosfwd>
#include <string>

#include "gpuglu/matrix.hpp"

namespace gpuglu {

enum class MmSymmetry { general, symmetric, skew_symmetric };

CsrMatrix<int32_t, double> read_matrix_market(const std::string& path);
CsrMatrix<int32_t, double> read_matrix_market(std::istream& in, const std::string& name);

// Writes A as "real general", or (symmetric / skew_symmetric) only its lower triangle;
// throws Error(invalid_input) if A lacks the claimed symmetry.
void write_matrix_market(const std::string& path, const CsrView<int32_t, double>& a,
                         MmSymmetry symmetry = MmSymmetry::general);
void write_matrix_market(std::ostream& out, const CsrView<int32_t, double>& a,
                         MmSymmetry symmetry = MmSymmetry::general);

}  // namespace gpuglu
