#include "factor_view.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "petsc_error_capture.hpp"

namespace gpuglu::bench {

PetscErrorCode view_factor_to_string(Mat F, std::string* text) {
  const std::string path = "/tmp/gpuglu_factor_view." + std::to_string(getpid());
  PetscViewer v = nullptr;
  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIOpen(PETSC_COMM_SELF, path.c_str(), &v));
  // The viewer is closed and the file removed before an error of the view is passed on.
  PetscErrorCode ierr = PetscViewerPushFormat(v, PETSC_VIEWER_ASCII_INFO);
  if (!ierr) ierr = MatView(F, v);
  if (!ierr) ierr = PetscViewerPopFormat(v);
  PetscCall(PetscViewerDestroy(&v));
  if (ierr) std::remove(path.c_str());
  PetscCall(ierr);
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  std::remove(path.c_str());
  *text = s.str();
  PetscFunctionReturn(0);
}

void add_gpuglu_view_extras(const std::string& view, Record& r) {
  std::stringstream s(view);
  for (std::string line; std::getline(s, line);) {
    line.erase(0, line.find_first_not_of(' '));
    auto after = [&](const char* key) { return line.substr(std::string(key).size()); };
    if (line.rfind("backend: ", 0) == 0) r.extra["gpuglu_backend"] = after("backend: ");
    else if (line.rfind("device: ", 0) == 0) r.extra["gpuglu_device"] = after("device: ");
    else if (line.rfind("GPU not used: ", 0) == 0) r.extra["gpuglu_gpu_note"] = after("GPU not used: ");
    else if (line.rfind("triangular solves: ", 0) == 0) r.extra["gpuglu_trsv"] = after("triangular solves: ");
    else if (line.rfind("levels: ", 0) == 0) r.extra["levels"] = std::atof(after("levels: ").c_str());
    else if (line.rfind("analyses run: ", 0) == 0) r.extra["analyses"] = std::atof(after("analyses run: ").c_str());
    else if (const auto p = line.find("refinement steps: "); p != std::string::npos)
      r.extra["refine_steps"] = std::atof(line.substr(p + 18).c_str());
  }
}

PetscErrorCode factor_error_text(Mat F, std::string* text) {
  MatFactorError e = MAT_FACTOR_NOERROR;
  PetscFunctionBegin;
  text->clear();
  PetscCall(MatFactorGetError(F, &e));
  if (e == MAT_FACTOR_NOERROR) PetscFunctionReturn(0);
  *text = e == MAT_FACTOR_STRUCT_ZEROPIVOT    ? "structural zero pivot"
          : e == MAT_FACTOR_NUMERIC_ZEROPIVOT ? "zero pivot"
          : e == MAT_FACTOR_OUTMEMORY         ? "out of memory"
                                              : "factorization failed (MAT_FACTOR_OTHER)";
  if (e == MAT_FACTOR_STRUCT_ZEROPIVOT || e == MAT_FACTOR_NUMERIC_ZEROPIVOT) {
    PetscReal pivot = 0;
    PetscInt row = -1;
    PetscCall(MatFactorGetErrorZeroPivot(F, &pivot, &row));
    *text += " in row " + std::to_string(row) + " (value " + sci(pivot) + ")";
  }
  PetscFunctionReturn(0);
}

}  // namespace gpuglu::bench
