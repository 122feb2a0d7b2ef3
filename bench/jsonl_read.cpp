#include "jsonl_read.hpp"

#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace gpuglu::bench {

namespace {

struct Parser {
  const std::string& s;
  size_t i = 0;

  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error("JSON: " + what + " at offset " + std::to_string(i));
  }
  void space() {
    while (i < s.size() && std::strchr(" \t\r\n", s[i])) ++i;
  }
  void expect(char c) {
    space();
    if (i >= s.size() || s[i] != c) fail(std::string("expected '") + c + "'");
    ++i;
  }
  bool literal(const char* word) {
    const size_t n = std::strlen(word);
    if (s.compare(i, n, word) != 0) return false;
    i += n;
    return true;
  }
  std::string string() {
    expect('"');
    std::string out;
    while (i < s.size() && s[i] != '"') {
      char c = s[i++];
      if (c == '\\') {
        if (i >= s.size()) fail("unfinished escape");
        c = s[i++];
        switch (c) {
          case 'n': c = '\n'; break;
          case 't': c = '\t'; break;
          case 'r': c = '\r'; break;
          case 'b': c = '\b'; break;
          case 'f': c = '\f'; break;
          case 'u':  // our writer never emits these; keep ASCII ones, replace the rest
            if (i + 4 > s.size()) fail("short \\u escape");
            c = static_cast<char>(std::strtol(s.substr(i, 4).c_str(), nullptr, 16));
            if (static_cast<unsigned char>(c) >= 0x80 || c == 0) c = '?';
            i += 4;
            break;
          default: break;  // \" \\ \/
        }
      }
      out += c;
    }
    expect('"');
    return out;
  }
  JsonScalar value() {
    space();
    if (i >= s.size()) fail("missing value");
    if (s[i] == '"') return string();
    if (literal("null")) return std::monostate{};
    if (literal("true")) return true;
    if (literal("false")) return false;
    if (s[i] == '{' || s[i] == '[') fail("nested values are not supported");
    const char* begin = s.c_str() + i;
    char* end = nullptr;
    const double v = std::strtod(begin, &end);
    if (end == begin) fail("not a value");
    i += static_cast<size_t>(end - begin);
    return v;
  }
};

}  // namespace

JsonObject parse_flat_json_object(const std::string& line) {
  Parser p{line};
  JsonObject out;
  p.expect('{');
  p.space();
  if (p.i < line.size() && line[p.i] == '}') {
    ++p.i;
  } else {
    for (;;) {
      std::string key = p.string();
      p.expect(':');
      out[key] = p.value();
      p.space();
      if (p.i < line.size() && line[p.i] == ',') {
        ++p.i;
        continue;
      }
      p.expect('}');
      break;
    }
  }
  p.space();
  if (p.i != line.size()) p.fail("trailing characters");
  return out;
}

}  // namespace gpuglu::bench
