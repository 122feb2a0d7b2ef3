// The factor of a parallel matrix (MATMPIAIJ for LU and Cholesky, MATMPISBAIJ for Cholesky):
// the matrix is gathered to one rank, which factors it with gpuglu's sequential factor Mat on
// its GPU (or CPU backend); each solve gathers the right-hand side there, solves and
// scatters the solution back. With -mat_gpuglu_gather_ranks the ranks form groups (of k
// consecutive ranks, or one per node) and the first rank of each group holds a factor of
// its own, so that several GPUs factor at once and a solve's vectors stay within a group.
// All data moves through PETSc's own machinery - MatCreateSubMatrices (values only on a
// refactorization: MAT_REUSE_MATRIX) and VecScatters - and every outcome of a group's root
// (an error, a factor error, the inertia, the info) reaches every rank of the group, so that
// all of them take the same path.
#include <cstring>
#include <vector>

#include "gpuglu/device.hpp"
#include "impl.hpp"

namespace gpuglu::petsc {

namespace {

// Rank 0 of a group holds its factor.
constexpr PetscMPIInt kRoot = 0;

struct Gathered {
  MatFactorType type = MAT_FACTOR_NONE;
  Mat* sub = nullptr;        // MatCreateSubMatrices' array: sub[0] is A on a group root, 0 x 0 elsewhere
  Mat seq_factor = nullptr;  // a group root's gpuglu factor of sub[0]
  IS all = nullptr;          // every row on a group root, none elsewhere
  VecScatter to_root = nullptr, from_root = nullptr;
  Vec b_root = nullptr, x_root = nullptr;
  MPI_Comm group = MPI_COMM_NULL;  // the ranks that share a factor
  PetscMPIInt rank = 0, size = 1;  // in the group
  PetscMPIInt groups = 1;
  PetscInt gather_ranks = 0;       // -mat_gpuglu_gather_ranks
  PetscMPIInt root_on_node = 0;    // a group root's index among the group roots of its node
  PetscMPIInt roots_on_node = 1;   // the group roots of this rank's node
  PetscMPIInt group_on_node = 1;   // the ranks of this rank's group on its node
  int32_t root_free_processors = 0;  // a root's: threads.cpp's root_free_processors
  bool root() const { return rank == kRoot; }
};

Gathered* gathered_of(Mat F) { return static_cast<Gathered*>(F->data); }

// Runs a group root's part; a failure on any root (already reported by PETSc's error
// handler there) becomes an error on every rank instead of a hang in the next collective call.
template <class Fn>
PetscErrorCode on_root(Mat F, const char* what, Fn&& fn) {
  Gathered* g = gathered_of(F);
  PetscErrorCode ierr = 0;
  PetscFunctionBegin;
  if (g->root()) ierr = fn();
  PetscMPIInt failed = ierr ? 1 : 0, any = 0;
  PetscCallMPI(MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, PetscObjectComm((PetscObject)F)));
  if (g->root()) PetscCall(ierr);
  PetscCheck(!any, PETSC_COMM_SELF, PETSC_ERR_LIB, "gpuglu: %s failed on a rank that holds the gathered matrix", what);
  PetscFunctionReturn(0);
}

// The group root's MatFactorError on every rank of the group (KSP reads F's on each).
PetscErrorCode share_factor_error(Mat F) {
  Gathered* g = gathered_of(F);
  struct {
    PetscInt type;
    PetscInt row;
    PetscReal value;
  } e{0, 0, 0};
  PetscFunctionBegin;
  if (g->root() && g->seq_factor) {
    e.type = g->seq_factor->factorerrortype;
    e.row = g->seq_factor->factorerror_zeropivot_row;
    e.value = g->seq_factor->factorerror_zeropivot_value;
  }
  PetscCallMPI(MPI_Bcast(&e, sizeof(e), MPI_BYTE, kRoot, g->group));
  F->factorerrortype = static_cast<MatFactorError>(e.type);
  F->factorerror_zeropivot_row = e.row;
  F->factorerror_zeropivot_value = e.value;
  PetscFunctionReturn(0);
}

// The groups of -mat_gpuglu_gather_ranks k: 0, one group of all ranks; k > 0, k consecutive
// ranks; -1, the ranks of a node (MPI_COMM_TYPE_SHARED).
PetscErrorCode make_groups(Mat F, Mat A) {
  Gathered* g = gathered_of(F);
  const MPI_Comm comm = PetscObjectComm((PetscObject)A);
  const char* prefix = nullptr;
  PetscMPIInt rank, size;
  PetscFunctionBegin;
  PetscCall(PetscObjectGetOptionsPrefix((PetscObject)F, &prefix));
  PetscOptionsBegin(comm, prefix, "gpuglu on a parallel matrix", "Mat");
  PetscCall(PetscOptionsInt("-mat_gpuglu_gather_ranks",
                            "Ranks per gathered factor: 0 all (one factor, on rank 0), k > 0 groups of k ranks, "
                            "-1 the ranks of a node; each group's first rank factors the whole matrix",
                            "None", g->gather_ranks, &g->gather_ranks, nullptr));
  PetscOptionsEnd();
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCheck(g->gather_ranks >= -1, comm, PETSC_ERR_ARG_OUTOFRANGE,
             "gpuglu: -mat_gpuglu_gather_ranks %" PetscInt_FMT " is outside [-1, ranks]", g->gather_ranks);
  if (g->group != MPI_COMM_NULL) PetscCallMPI(MPI_Comm_free(&g->group));
  if (g->gather_ranks == -1) {
    PetscCallMPI(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &g->group));
  } else {
    const PetscMPIInt k = g->gather_ranks == 0 ? size : static_cast<PetscMPIInt>(PetscMin(g->gather_ranks, size));
    PetscCallMPI(MPI_Comm_split(comm, rank / k, rank, &g->group));
  }
  PetscCallMPI(MPI_Comm_rank(g->group, &g->rank));
  PetscCallMPI(MPI_Comm_size(g->group, &g->size));
  PetscMPIInt is_root = g->root() ? 1 : 0;
  PetscCallMPI(MPI_Allreduce(&is_root, &g->groups, 1, MPI_INT, MPI_SUM, comm));
  // Node-local rank mod device count would put roots k ranks apart on one GPU when k is a
  // multiple of the count: the roots of a node take its GPUs in turn instead.
  MPI_Comm node;
  PetscMPIInt before = 0, node_rank;
  PetscCallMPI(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node));
  PetscCallMPI(MPI_Exscan(&is_root, &before, 1, MPI_INT, MPI_SUM, node));
  PetscCallMPI(MPI_Comm_rank(node, &node_rank));
  g->root_on_node = node_rank == 0 ? 0 : before;  // MPI_Exscan leaves rank 0's result undefined
  PetscCallMPI(MPI_Allreduce(&is_root, &g->roots_on_node, 1, MPI_INT, MPI_SUM, node));
  PetscCallMPI(MPI_Comm_free(&node));
  MPI_Comm group_node;
  PetscCallMPI(MPI_Comm_split_type(g->group, MPI_COMM_TYPE_SHARED, g->rank, MPI_INFO_NULL, &group_node));
  PetscCallMPI(MPI_Comm_size(group_node, &g->group_on_node));
  // The root is the group's rank 0, the first of its node's (MPI_Comm_split_type keeps order).
  PetscCall(root_free_processors(group_node, kRoot, &g->root_free_processors));
  PetscCallMPI(MPI_Comm_free(&group_node));
  PetscFunctionReturn(0);
}

// A gathered to each group root (MAT_INITIAL_MATRIX: pattern and values; MAT_REUSE_MATRIX: values).
PetscErrorCode gather_matrix(Mat F, Mat A, MatReuse reuse) {
  Gathered* g = gathered_of(F);
  PetscFunctionBegin;
  if (reuse == MAT_INITIAL_MATRIX) {
    if (g->sub) PetscCall(MatDestroySubMatrices(1, &g->sub));
    PetscCall(ISDestroy(&g->all));
    PetscCall(ISCreateStride(PETSC_COMM_SELF, g->root() ? A->rmap->N : 0, 0, 1, &g->all));
  }
  PetscCall(MatCreateSubMatrices(A, 1, &g->all, &g->all, reuse, &g->sub));
  PetscFunctionReturn(0);
}

// b's entries to each group root (all of them), and back from it the entries of x that the
// group's ranks own.
PetscErrorCode make_vectors(Mat F, Mat A) {
  Gathered* g = gathered_of(F);
  Vec v;
  IS owned;
  PetscFunctionBegin;
  PetscCall(VecScatterDestroy(&g->to_root));
  PetscCall(VecScatterDestroy(&g->from_root));
  PetscCall(VecDestroy(&g->b_root));
  PetscCall(VecDestroy(&g->x_root));
  PetscCall(MatCreateVecs(A, &v, nullptr));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, g->root() ? A->rmap->N : 0, &g->b_root));
  PetscCall(VecDuplicate(g->b_root, &g->x_root));
  PetscCall(VecScatterCreate(v, g->all, g->b_root, nullptr, &g->to_root));
  // The rows the group's ranks own (one range per rank: a node's ranks need not be consecutive).
  PetscInt mine[2];
  PetscCall(VecGetOwnershipRange(v, &mine[0], &mine[1]));
  std::vector<PetscInt> ranges(g->root() ? 2 * static_cast<size_t>(g->size) : 0);
  PetscCallMPI(MPI_Gather(mine, 2, MPIU_INT, ranges.data(), 2, MPIU_INT, kRoot, g->group));
  std::vector<PetscInt> rows;
  for (size_t r = 0; r + 1 < ranges.size(); r += 2)
    for (PetscInt i = ranges[r]; i < ranges[r + 1]; ++i) rows.push_back(i);
  PetscCall(ISCreateGeneral(PETSC_COMM_SELF, static_cast<PetscInt>(rows.size()), rows.data(), PETSC_COPY_VALUES, &owned));
  PetscCall(VecScatterCreate(g->x_root, owned, v, owned, &g->from_root));
  PetscCall(ISDestroy(&owned));
  PetscCall(VecDestroy(&v));
  PetscFunctionReturn(0);
}

// The root's factor Mat of the gathered matrix, with F's options prefix and failure mode.
PetscErrorCode make_root_factor(Mat F) {
  Gathered* g = gathered_of(F);
  const char* prefix = nullptr;
  PetscFunctionBegin;
  PetscCall(MatDestroy(&g->seq_factor));
  PetscCall(MatGetFactor_GPUGLU(g->sub[0], g->type, &g->seq_factor));
  // The device count is read here only where it decides the device now, several roots: the
  // first query is the CUDA start-up, which one root's analysis otherwise overlaps (DeviceWarmUp).
  if (g->groups > 1) {
    const int32_t devices = query_device().device_count;
    if (devices > 0) factor_of(g->seq_factor)->default_device = g->root_on_node % devices;
  }
  // -mat_gpuglu_devices 2 (split_factor.cpp): the root splits its factor over its share of the
  // node's devices among the node's group roots (the other ranks factor nothing): one root
  // alone takes the node's first two GPUs, whatever the ranks' own shares are.
  // Its group's other ranks on this node wait for it in every phase (on_root's collectives).
  factor_of(g->seq_factor)->waiting_ranks = g->group_on_node - 1;
  factor_of(g->seq_factor)->free_processors = g->root_free_processors;
  factor_of(g->seq_factor)->split.share_index = g->root_on_node;
  factor_of(g->seq_factor)->split.sharers = g->roots_on_node;
  PetscCall(PetscObjectGetOptionsPrefix((PetscObject)F, &prefix));
  PetscCall(MatSetOptionsPrefix(g->seq_factor, prefix));
  g->seq_factor->erroriffailure = F->erroriffailure;
  PetscFunctionReturn(0);
}

PetscErrorCode symbolic(Mat F, Mat A, const MatFactorInfo* info) {
  Gathered* g = gathered_of(F);
  PetscFunctionBegin;
  PetscCall(make_groups(F, A));
  PetscCall(gather_matrix(F, A, MAT_INITIAL_MATRIX));
  PetscCall(make_vectors(F, A));
  PetscCall(on_root(F, "the symbolic factorization", [&]() -> PetscErrorCode {
    IS rows, cols;
    PetscFunctionBegin;
    PetscCall(make_root_factor(F));
    // gpuglu orders by itself; PETSc's ordering of the parallel matrix does not carry over
    // to the gathered one, so -mat_gpuglu_ordering petsc means natural here.
    PetscCall(MatGetOrdering(g->sub[0], MATORDERINGNATURAL, &rows, &cols));
    if (g->type == MAT_FACTOR_LU)
      PetscCall(MatLUFactorSymbolic(g->seq_factor, g->sub[0], rows, cols, info));
    else
      PetscCall(MatCholeskyFactorSymbolic(g->seq_factor, g->sub[0], rows, info));
    PetscCall(ISDestroy(&rows));
    PetscCall(ISDestroy(&cols));
    PetscFunctionReturn(0);
  }));
  PetscCall(share_factor_error(F));
  PetscFunctionReturn(0);
}

PetscErrorCode numeric(Mat F, Mat A, const MatFactorInfo* info) {
  Gathered* g = gathered_of(F);
  PetscFunctionBegin;
  PetscCall(gather_matrix(F, A, MAT_REUSE_MATRIX));
  PetscCall(on_root(F, "the numeric factorization", [&]() -> PetscErrorCode {
    PetscFunctionBegin;
    g->seq_factor->erroriffailure = F->erroriffailure;
    if (g->type == MAT_FACTOR_LU)
      PetscCall(MatLUFactorNumeric(g->seq_factor, g->sub[0], info));
    else
      PetscCall(MatCholeskyFactorNumeric(g->seq_factor, g->sub[0], info));
    PetscFunctionReturn(0);
  }));
  PetscCall(share_factor_error(F));
  PetscFunctionReturn(0);
}

PetscErrorCode MatLUFactorNumeric_Gathered(Mat F, Mat A, const MatFactorInfo* info) {
  PetscFunctionBegin;
  PetscCall(numeric(F, A, info));
  PetscFunctionReturn(0);
}

PetscErrorCode MatCholeskyFactorNumeric_Gathered(Mat F, Mat A, const MatFactorInfo* info) {
  PetscFunctionBegin;
  PetscCall(numeric(F, A, info));
  PetscFunctionReturn(0);
}

PetscErrorCode MatLUFactorSymbolic_Gathered(Mat F, Mat A, IS, IS, const MatFactorInfo* info) {
  PetscFunctionBegin;
  PetscCall(symbolic(F, A, info));
  F->ops->lufactornumeric = MatLUFactorNumeric_Gathered;
  PetscFunctionReturn(0);
}

PetscErrorCode MatCholeskyFactorSymbolic_Gathered(Mat F, Mat A, IS, const MatFactorInfo* info) {
  PetscFunctionBegin;
  PetscCall(symbolic(F, A, info));
  F->ops->choleskyfactornumeric = MatCholeskyFactorNumeric_Gathered;
  PetscFunctionReturn(0);
}

// b to the root, solved there, x back; the factor's state after the solve (a recovery or a
// failure found by the backward-error check) to every rank.
PetscErrorCode vec_solve(Mat F, Vec b, Vec x, bool transpose) {
  Gathered* g = gathered_of(F);
  PetscFunctionBegin;
  PetscCall(VecScatterBegin(g->to_root, b, g->b_root, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(g->to_root, b, g->b_root, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(on_root(F, "the solve", [&]() -> PetscErrorCode {
    PetscFunctionBegin;
    if (transpose)
      PetscCall(MatSolveTranspose(g->seq_factor, g->b_root, g->x_root));
    else
      PetscCall(MatSolve(g->seq_factor, g->b_root, g->x_root));
    PetscFunctionReturn(0);
  }));
  PetscCall(VecScatterBegin(g->from_root, g->x_root, x, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(g->from_root, g->x_root, x, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(share_factor_error(F));
  PetscFunctionReturn(0);
}

PetscErrorCode MatSolve_Gathered(Mat F, Vec b, Vec x) {
  PetscFunctionBegin;
  PetscCall(vec_solve(F, b, x, false));
  PetscFunctionReturn(0);
}

PetscErrorCode MatSolveTranspose_Gathered(Mat F, Vec b, Vec x) {
  PetscFunctionBegin;
  PetscCall(vec_solve(F, b, x, true));
  PetscFunctionReturn(0);
}

// Column by column through the vector path: the gathered right-hand sides of a dense
// parallel B would need a second scatter plan for little gain.
PetscErrorCode mat_solve(Mat F, Mat B, Mat X, bool transpose) {
  PetscInt nrhs;
  PetscFunctionBegin;
  PetscCall(MatGetSize(B, nullptr, &nrhs));
  for (PetscInt j = 0; j < nrhs; ++j) {
    Vec bj, xj;
    PetscCall(MatDenseGetColumnVecRead(B, j, &bj));
    PetscCall(MatDenseGetColumnVecWrite(X, j, &xj));
    PetscCall(vec_solve(F, bj, xj, transpose));
    PetscCall(MatDenseRestoreColumnVecWrite(X, j, &xj));
    PetscCall(MatDenseRestoreColumnVecRead(B, j, &bj));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode MatMatSolve_Gathered(Mat F, Mat B, Mat X) {
  PetscFunctionBegin;
  PetscCall(mat_solve(F, B, X, false));
  PetscFunctionReturn(0);
}

PetscErrorCode MatMatSolveTranspose_Gathered(Mat F, Mat B, Mat X) {
  PetscFunctionBegin;
  PetscCall(mat_solve(F, B, X, true));
  PetscFunctionReturn(0);
}

PetscErrorCode MatGetInertia_Gathered(Mat F, PetscInt* nneg, PetscInt* nzero, PetscInt* npos) {
  Gathered* g = gathered_of(F);
  PetscInt counts[3] = {0, 0, 0};
  PetscFunctionBegin;
  PetscCall(on_root(F, "MatGetInertia", [&]() -> PetscErrorCode {
    PetscFunctionBegin;
    PetscCall(MatGetInertia(g->seq_factor, &counts[0], &counts[1], &counts[2]));
    PetscFunctionReturn(0);
  }));
  PetscCallMPI(MPI_Bcast(counts, 3, MPIU_INT, kRoot, g->group));
  if (nneg) *nneg = counts[0];
  if (nzero) *nzero = counts[1];
  if (npos) *npos = counts[2];
  PetscFunctionReturn(0);
}

PetscErrorCode MatGetInfo_Gathered(Mat F, MatInfoType, MatInfo* info) {
  Gathered* g = gathered_of(F);
  PetscFunctionBegin;
  PetscCall(PetscMemzero(info, sizeof(*info)));
  if (g->root() && g->seq_factor) PetscCall(MatGetInfo(g->seq_factor, MAT_LOCAL, info));
  PetscCallMPI(MPI_Bcast(info, sizeof(*info), MPI_BYTE, kRoot, g->group));
  PetscFunctionReturn(0);
}

PetscErrorCode MatView_Gathered(Mat F, PetscViewer viewer) {
  Gathered* g = gathered_of(F);
  PetscBool iascii;
  PetscViewerFormat format;
  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &iascii));
  if (!iascii) PetscFunctionReturn(0);
  PetscCall(PetscViewerGetFormat(viewer, &format));
  if (format != PETSC_VIEWER_ASCII_INFO && format != PETSC_VIEWER_ASCII_INFO_DETAIL) PetscFunctionReturn(0);
  PetscMPIInt size, rank;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)F), &size));
  PetscCallMPI(MPI_Comm_rank(PetscObjectComm((PetscObject)F), &rank));
  if (g->groups <= 1)
    PetscCall(PetscViewerASCIIPrintf(viewer,
                                     "gpuglu on a parallel matrix: gathered to rank %d of %d (MatCreateSubMatrices; "
                                     "solves through VecScatters), factored there:\n",
                                     kRoot, size));
  else
    PetscCall(PetscViewerASCIIPrintf(viewer,
                                     "gpuglu on a parallel matrix: %d factors, one per group of ranks "
                                     "(-mat_gpuglu_gather_ranks %" PetscInt_FMT "), each gathered to its group's first "
                                     "rank; rank 0's:\n",
                                     g->groups, g->gather_ranks));
  PetscViewer sub;
  PetscCall(PetscViewerGetSubViewer(viewer, PETSC_COMM_SELF, &sub));
  if (rank == 0 && g->seq_factor) {
    PetscCall(PetscViewerASCIIPushTab(sub));
    PetscCall(MatView(g->seq_factor, sub));
    PetscCall(PetscViewerASCIIPopTab(sub));
  }
  PetscCall(PetscViewerRestoreSubViewer(viewer, PETSC_COMM_SELF, &sub));
  PetscCall(PetscViewerFlush(viewer));  // the root's lines in their place, not at the viewer's end
  PetscFunctionReturn(0);
}

PetscErrorCode MatDestroy_Gathered(Mat F) {
  Gathered* g = gathered_of(F);
  PetscFunctionBegin;
  if (g) {
    if (g->sub) PetscCall(MatDestroySubMatrices(1, &g->sub));
    PetscCall(MatDestroy(&g->seq_factor));
    PetscCall(ISDestroy(&g->all));
    PetscCall(VecScatterDestroy(&g->to_root));
    PetscCall(VecScatterDestroy(&g->from_root));
    if (g->group != MPI_COMM_NULL) PetscCallMPI(MPI_Comm_free(&g->group));
    PetscCall(VecDestroy(&g->b_root));
    PetscCall(VecDestroy(&g->x_root));
    delete g;
  }
  F->data = nullptr;
  PetscCall(PetscObjectComposeFunction((PetscObject)F, "MatFactorGetSolverType_C", nullptr));
  PetscCall(PetscObjectComposeFunction((PetscObject)F, "MatFactorSetSchurIS_C", nullptr));
  PetscFunctionReturn(0);
}

PetscErrorCode MatFactorGetSolverType_Gathered(Mat, MatSolverType* type) {
  PetscFunctionBegin;
  *type = MATSOLVERGPUGLU;
  PetscFunctionReturn(0);
}

}  // namespace

PetscErrorCode MatGetFactor_GPUGLU_Gathered(Mat A, MatFactorType ftype, Mat* F) {
  Mat B;
  const char* type_name = ((PetscObject)A)->type_name;
  PetscFunctionBegin;
  PetscCheck(ftype == MAT_FACTOR_LU || ftype == MAT_FACTOR_CHOLESKY, PetscObjectComm((PetscObject)A), PETSC_ERR_SUP,
             "gpuglu: %s of a parallel %s matrix is not supported (a global incomplete factorization): use "
             "-pc_type bjacobi or asm with -sub_pc_type %s -sub_pc_factor_mat_solver_type gpuglu, or -pc_type %s",
             MatFactorTypes[ftype], type_name, ftype == MAT_FACTOR_ICC ? "icc" : "ilu",
             ftype == MAT_FACTOR_ICC ? "cholesky" : "lu");
  PetscBool sbaij;
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATMPISBAIJ, &sbaij));
  PetscCheck(!sbaij || ftype == MAT_FACTOR_CHOLESKY, PetscObjectComm((PetscObject)A), PETSC_ERR_SUP,
             "gpuglu: an MPISBAIJ matrix stores one triangle: use -pc_type cholesky, or convert it to MPIAIJ for LU");
  PetscCheck(!sbaij || A->rmap->bs == 1, PetscObjectComm((PetscObject)A), PETSC_ERR_SUP,
             "gpuglu: MPISBAIJ matrices with block size %" PetscInt_FMT " are not supported (block size 1 is)",
             A->rmap->bs);
  PetscCall(MatCreate(PetscObjectComm((PetscObject)A), &B));
  PetscCall(MatSetSizes(B, A->rmap->n, A->cmap->n, A->rmap->N, A->cmap->N));
  PetscCall(PetscStrallocpy(MATSOLVERGPUGLU, &((PetscObject)B)->type_name));
  PetscCall(MatSetUp(B));
  auto* g = new Gathered();
  g->type = ftype;
  B->data = g;
  B->ops->lufactorsymbolic = MatLUFactorSymbolic_Gathered;
  B->ops->choleskyfactorsymbolic = MatCholeskyFactorSymbolic_Gathered;
  B->ops->getinertia = MatGetInertia_Gathered;
  B->ops->solve = MatSolve_Gathered;
  B->ops->solvetranspose = MatSolveTranspose_Gathered;
  B->ops->matsolve = MatMatSolve_Gathered;
  B->ops->matsolvetranspose = MatMatSolveTranspose_Gathered;
  B->ops->getinfo = MatGetInfo_Gathered;
  B->ops->view = MatView_Gathered;
  B->ops->destroy = MatDestroy_Gathered;
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatFactorGetSolverType_C", MatFactorGetSolverType_Gathered));
  PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatFactorSetSchurIS_C", MatFactorSetSchurIS_GPUGLU_Gathered));
  B->factortype = ftype;
  B->assembled = PETSC_TRUE;
  B->preallocated = PETSC_TRUE;
  PetscCall(PetscFree(B->solvertype));
  PetscCall(PetscStrallocpy(MATSOLVERGPUGLU, &B->solvertype));
  B->canuseordering = PETSC_TRUE;
  PetscCall(PetscStrallocpy(MATORDERINGEXTERNAL, (char**)&B->preferredordering[MAT_FACTOR_LU]));
  PetscCall(PetscStrallocpy(MATORDERINGEXTERNAL, (char**)&B->preferredordering[MAT_FACTOR_CHOLESKY]));
  *F = B;
  PetscFunctionReturn(0);
}

}  // namespace gpuglu::petsc
