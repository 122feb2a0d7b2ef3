#pragma once
// The complex supernodal LDL^T: a complex symmetric or Hermitian A factored by the real
// supernodal LDL^T (CPU or GPU, its Bunch-Kaufman pivoting inside supernodes and its
// refinement) of A's equivalent real form K (api/real_form.hpp), behind the engine seam as a
// complex engine. SparseLDLT<std::complex<double>> builds it where the LDL^T engine is
// supernodal; everything above the seam (the checks, the column and LU fallbacks) is the
// complex solver's own.
//
// K costs twice the flops and the memory of complex arithmetic on A's factor (a complex
// multiply-add is 8 real flops, a 2 x 2 block's 16), and buys the real engine whole: its
// kernels, pivot rule and tuning, tested once. The backward errors it reports are K's
// componentwise ones (each real and imaginary component against its own scale), and so are
// the perturbed pivots it counts and a failing pivot's value (a failing column is A's).
#include <cstdint>
#include <memory>
#include <string>

#include "core/numeric_engine.hpp"
#include "gpuglu/device.hpp"

namespace gpuglu::api {

// s: A's supernodal LDL^T schedule (its ordering and counts; analyze_symmetric_input);
// pattern: A's full pattern; a_values: A's values there (K's scaling reads them). K is
// analyzed with s's ordering expanded (its pairs together), scaled unless spd, on *backend as
// make_engine decides (which may move it to the CPU: *backend and *fallback_reason say so).
// hermitian: A = A^H (else A = A^T; an A whose values are all real is factored in the
// Hermitian form either way, so that D's signs stay its inertia).
std::unique_ptr<BasicNumericEngine<Complex>> make_real_form_ldlt(const Schedule& s, PatternRef pattern,
                                                                 const int32_t* rowptr32, const Complex* a_values,
                                                                 bool hermitian, bool spd, const Options& o,
                                                                 const DeviceInfo& device, Backend* backend,
                                                                 std::string* fallback_reason);

}  // namespace gpuglu::api
