#pragma once
// One peer's run in a benchmark that reports every peer it tried (gpuglu_ldlt_bench,
// gpuglu_complex_bench): its times, or why it failed or was skipped - a failing peer is a
// line in the table and a record with its note, never the end of the run.
#include <exception>
#include <functional>
#include <string>

#include "ldlt_problem.hpp"

namespace gpuglu::bench {

struct PeerOutcome {
  std::string name;
  SymPeerTimes t;
  std::string note;  // why it failed or was skipped; empty when it ran
  bool ok() const { return note.empty(); }
};

// f's times, or its exception's message as the note.
inline PeerOutcome run_peer(const std::string& name, const std::function<SymPeerTimes()>& f) {
  PeerOutcome p{name, {}, {}};
  try {
    p.t = f();
  } catch (const std::exception& e) {
    p.note = e.what();
    if (p.note.empty()) p.note = "failed";
  }
  return p;
}

inline PeerOutcome skipped(const std::string& name, const std::string& why) {
  return PeerOutcome{name, {}, "skipped: " + why};
}

}  // namespace gpuglu::bench
