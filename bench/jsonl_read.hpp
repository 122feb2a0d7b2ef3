#pragma once
// Reads back the flat JSON objects results_jsonl.hpp writes (one per line: strings,
// numbers, null, true/false; no nesting), e.g. to take an earlier run's numbers.
#include <map>
#include <string>
#include <variant>

namespace gpuglu::bench {

using JsonScalar = std::variant<std::monostate, double, std::string, bool>;  // monostate: null
using JsonObject = std::map<std::string, JsonScalar>;

// Throws std::runtime_error naming the offset where line is not such an object.
JsonObject parse_flat_json_object(const std::string& line);

}  // namespace gpuglu::bench
