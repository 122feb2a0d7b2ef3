#pragma once
// The view of a PETSc factor matrix as -ksp_view prints it, the lines of gpuglu's view that
// say what ran (backend, device, levels), and what a failed factor says went wrong, for the
// benchmarks' records.
#include <petscmat.h>

#include <string>

#include "results_jsonl.hpp"

namespace gpuglu::bench {

// MatView of F in the ASCII info format, as text. Goes through a file: PETSc's string
// viewer is not an ASCII viewer, and factor views print only to ASCII viewers.
PetscErrorCode view_factor_to_string(Mat F, std::string* text);

// Adds gpuglu_backend, gpuglu_device, gpuglu_gpu_note, levels, analyses and refine_steps
// from a gpuglu factor's view to r's extras (lines that are absent are left out).
void add_gpuglu_view_extras(const std::string& view, Record& r);

// MatFactorGetError of F in words ("zero pivot in row 12 (value 0.000e+00)"); empty when F
// reports no error.
PetscErrorCode factor_error_text(Mat F, std::string* text);

}  // namespace gpuglu::bench
