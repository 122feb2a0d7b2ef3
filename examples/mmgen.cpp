// gpuglu_mmgen: writes a generated matrix (gpuglu/generators.hpp) as Matrix Market,
// so that other tools (PETSc via gpuglu_mm_to_petsc, MATLAB, SuiteSparse) can read
// exactly the matrix a gpuglu test or benchmark used.
//
//   gpuglu_mmgen circuit:3000:40:7 circuit.mtx
#include <cstdio>
#include <exception>
#include <string>

#include "gpuglu/generators.hpp"
#include "gpuglu/matrix_market.hpp"
#include "gpuglu/status.hpp"

namespace {

void usage(const char* prog) {
  std::fprintf(stderr,
               "usage: %s <spec> <out.mtx>\n"
               "  spec: lap2d5:NXxNY  lap2d9:NXxNY  lap3d7:NXxNYxNZ  lap3d27:NXxNYxNZ\n"
               "        convdiff3d:NXxNYxNZ[:PECLET]  circuit:NODES[:SOURCES[:SEED]]\n"
               "        powergrid:NODES[:SOURCES[:SEED]]  randdd:N:NNZ_PER_ROW[:SEED]\n"
               "        kkt:NPRIMAL:NDUAL[:SEED]  elast3d:NXxNYxNZ[:POISSON]\n"
               "        shiftlap2d:NXxNY:SHIFT  shiftlap3d:NXxNYxNZ:SHIFT\n",
               prog);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    usage(argv[0]);
    return 1;
  }
  const std::string spec = argv[1], out = argv[2];
  try {
    const gpuglu::CsrMatrix<int32_t, double> a = gpuglu::gen::from_spec(spec);
    gpuglu::write_matrix_market(out, a.view());
    std::printf("%s: %d x %d, %d entries -> %s\n", spec.c_str(), a.nrows, a.ncols, a.nnz(), out.c_str());
  } catch (const gpuglu::Error& e) {
    std::fprintf(stderr, "%s: %s (%s)\n", argv[0], e.what(), gpuglu::to_string(e.status()));
    return 1;
  } catch (const std::exception& e) {  // bad_alloc for a huge spec
    std::fprintf(stderr, "%s: %s\n", argv[0], e.what());
    return 1;
  }
  return 0;
}
