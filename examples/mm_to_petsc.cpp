// gpuglu_mm_to_petsc: converts a Matrix Market file into PETSc's binary format,
// matrix first, then a right-hand side: the layout PETSc's KSP tutorial ex10
// (-f file.petsc) loads, so unmodified PETSc examples can run on gpuglu's matrices.
//
//   gpuglu_mm_to_petsc -fin circuit.mtx -fout circuit.petsc -rhs Ax
//
// -rhs Ax writes b = A x with x_i = 1 + i/n (a known, non-constant solution, so a
// solver that permutes the answer is caught); ones writes b = 1; none omits b.
#include <petscmat.h>
#include <petscviewer.h>

#include <string>
#include <vector>

#include "gpuglu/matrix_market.hpp"
#include "gpuglu/status.hpp"

static const char help[] = "Converts Matrix Market to a PETSc binary matrix (+ right-hand side).\n"
                           "  -fin <file.mtx>          input Matrix Market file\n"
                           "  -fout <file.petsc>       output PETSc binary file\n"
                           "  -rhs <ones|Ax|none>      right-hand side appended after the matrix (default Ax)\n";

namespace {

enum RhsKind { RHS_ONES, RHS_AX, RHS_NONE };
const char* const rhs_names[] = {"ones", "Ax", "none"};

PetscErrorCode read_mm(const char* path, gpuglu::CsrMatrix<int32_t, double>* a) {
  PetscFunctionBeginUser;
  try {
    *a = gpuglu::read_matrix_market(path);
  } catch (const gpuglu::Error& e) {
    // Exceptions must not unwind through PETSc's C frames: report them as a PETSc error.
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "%s (%s)", e.what(), gpuglu::to_string(e.status()));
  }
  PetscFunctionReturn(0);
}

// MatSeqAIJSetPreallocationCSR copies, so the arrays may be temporaries; they are
// converted to PetscInt because PETSc may be built with 64-bit indices.
PetscErrorCode build_seqaij(const gpuglu::CsrMatrix<int32_t, double>& a, Mat* out) {
  PetscFunctionBeginUser;
  const std::vector<PetscInt> rowptr(a.rowptr.begin(), a.rowptr.end());
  const std::vector<PetscInt> colind(a.colind.begin(), a.colind.end());
  const std::vector<PetscScalar> values(a.values.begin(), a.values.end());
  Mat m;
  PetscCall(MatCreate(PETSC_COMM_SELF, &m));
  PetscCall(MatSetSizes(m, a.nrows, a.ncols, a.nrows, a.ncols));
  PetscCall(MatSetType(m, MATSEQAIJ));
  PetscCall(MatSeqAIJSetPreallocationCSR(m, rowptr.data(), colind.data(), values.data()));
  PetscCall(MatAssemblyBegin(m, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(m, MAT_FINAL_ASSEMBLY));
  *out = m;
  PetscFunctionReturn(0);
}

PetscErrorCode build_rhs(Mat a, RhsKind kind, Vec* b) {
  PetscFunctionBeginUser;
  PetscInt nrows, ncols;
  PetscCall(MatGetSize(a, &nrows, &ncols));
  PetscCall(MatCreateVecs(a, nullptr, b));
  if (kind == RHS_ONES) {
    PetscCall(VecSet(*b, 1.0));
    PetscFunctionReturn(0);
  }
  Vec x;
  PetscCall(MatCreateVecs(a, &x, nullptr));
  PetscScalar* xv;
  PetscCall(VecGetArray(x, &xv));
  for (PetscInt i = 0; i < ncols; ++i) xv[i] = 1.0 + static_cast<PetscReal>(i) / static_cast<PetscReal>(ncols);
  PetscCall(VecRestoreArray(x, &xv));
  PetscCall(MatMult(a, x, *b));
  PetscCall(VecDestroy(&x));
  PetscFunctionReturn(0);
}

PetscErrorCode convert(const char* fin, const char* fout, RhsKind rhs) {
  PetscFunctionBeginUser;
  gpuglu::CsrMatrix<int32_t, double> csr;
  PetscCall(read_mm(fin, &csr));
  Mat a;
  PetscCall(build_seqaij(csr, &a));
  PetscCall(PetscObjectSetName((PetscObject)a, "A"));

  PetscViewer viewer;
  PetscCall(PetscViewerBinaryOpen(PETSC_COMM_SELF, fout, FILE_MODE_WRITE, &viewer));
  PetscCall(MatView(a, viewer));
  if (rhs != RHS_NONE) {
    Vec b;
    PetscCall(build_rhs(a, rhs, &b));
    PetscCall(PetscObjectSetName((PetscObject)b, "b"));
    PetscCall(VecView(b, viewer));
    PetscCall(VecDestroy(&b));
  }
  PetscCall(PetscViewerDestroy(&viewer));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s: %d x %d, %d entries -> %s (rhs %s)\n", fin, csr.nrows, csr.ncols,
                        csr.nnz(), fout, rhs_names[rhs]));
  PetscCall(MatDestroy(&a));
  PetscFunctionReturn(0);
}

PetscErrorCode run() {
  PetscFunctionBeginUser;
  char fin[PETSC_MAX_PATH_LEN] = "", fout[PETSC_MAX_PATH_LEN] = "";
  PetscBool have_in = PETSC_FALSE, have_out = PETSC_FALSE;
  PetscInt rhs = RHS_AX;
  PetscOptionsBegin(PETSC_COMM_WORLD, nullptr, "gpuglu_mm_to_petsc options", nullptr);
  PetscCall(PetscOptionsString("-fin", "input Matrix Market file", nullptr, fin, fin, sizeof(fin), &have_in));
  PetscCall(PetscOptionsString("-fout", "output PETSc binary file", nullptr, fout, fout, sizeof(fout), &have_out));
  PetscCall(PetscOptionsEList("-rhs", "right-hand side after the matrix", nullptr, rhs_names, 3, rhs_names[rhs],
                              &rhs, nullptr));
  PetscOptionsEnd();
  PetscCheck(have_in && fin[0], PETSC_COMM_WORLD, PETSC_ERR_USER_INPUT,
             "missing -fin <file.mtx>; usage: gpuglu_mm_to_petsc -fin file.mtx -fout file.petsc [-rhs ones|Ax|none]");
  PetscCheck(have_out && fout[0], PETSC_COMM_WORLD, PETSC_ERR_USER_INPUT,
             "missing -fout <file.petsc>; usage: gpuglu_mm_to_petsc -fin file.mtx -fout file.petsc [-rhs ones|Ax|none]");

  PetscMPIInt size;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCheck(size == 1, PETSC_COMM_WORLD, PETSC_ERR_SUP, "gpuglu_mm_to_petsc is sequential; run it on 1 rank");
  PetscCall(convert(fin, fout, static_cast<RhsKind>(rhs)));
  PetscFunctionReturn(0);
}

}  // namespace

int main(int argc, char** argv) {
  PetscCall(PetscInitialize(&argc, &argv, nullptr, help));
  PetscCall(run());
  PetscCall(PetscFinalize());
  return 0;
}
