#include "io/json_read.h"

#include "io/file_io.h"
#include "io/input_error.h"

#include <set>
#include <vector>

namespace lwb::jsonio {
namespace {

using nlohmann::json;

// Thrown from parse()'s walk, caught there; never escape this file.
struct TooDeep {};
struct DuplicateKey {
  std::string key;
};

// The SAX handler behind walkJson: values are skipped, containers and keys reported.
class Walker : public nlohmann::json_sax<json> {
 public:
  explicit Walker(const std::function<void(JsonEvent, int, const std::string&)>& onEvent) : onEvent_(onEvent) {}
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override { return open(JsonEvent::ObjectStart); }
  bool start_array(std::size_t) override { return open(JsonEvent::ArrayStart); }
  bool end_object() override { return close(JsonEvent::ObjectEnd); }
  bool end_array() override { return close(JsonEvent::ArrayEnd); }
  bool key(string_t& k) override {
    onEvent_(JsonEvent::Key, depth_ - 1, k);
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }

 private:
  bool open(JsonEvent e) {
    onEvent_(e, depth_++, kNoKey);
    return true;
  }
  bool close(JsonEvent e) {
    onEvent_(e, --depth_, kNoKey);
    return true;
  }
  static inline const std::string kNoKey;
  const std::function<void(JsonEvent, int, const std::string&)>& onEvent_;
  int depth_ = 0;
};

// "[json.exception.parse_error.101] parse error at line 1, column 3: syntax error while
// parsing value - invalid literal; last read: '1x'" -> "syntax error while parsing value -
// invalid literal; last read: '1x'": the position is reported once, by us.
std::string reason(const json::exception& e) {
  std::string s = e.what();
  if (s.starts_with("[json.exception.")) {
    const auto close = s.find("] ");
    if (close != std::string::npos) s.erase(0, close + 2);
  }
  if (s.starts_with("parse error")) {
    const auto colon = s.find(": ");
    if (colon != std::string::npos) s.erase(0, colon + 2);
  }
  // A hostile file's bytes end up in "last read: '...'"; keep the message one short line.
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  if (s.size() > 160) s = s.substr(0, 157) + "...";
  return s;
}

}  // namespace

std::string lineColumn(std::string_view text, size_t byte) {
  size_t line = 1, column = 1;
  for (size_t i = 0; i + 1 < byte && i < text.size(); ++i) {
    if (text[i] == '\n') ++line, column = 1;
    else ++column;
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

std::string dumpReadable(const json& value) {
  constexpr size_t kIndentBelow = size_t{64} << 10;
  std::string text = value.dump(-1, ' ', false, json::error_handler_t::replace);
  if (text.size() <= kIndentBelow) text = value.dump(2, ' ', false, json::error_handler_t::replace);
  return text;
}

void walkJson(std::string_view text, const std::function<void(JsonEvent, int, const std::string&)>& onEvent) {
  Walker walker(onEvent);
  json::sax_parse(text.begin(), text.end(), &walker);
}

json parse(std::string_view text, const std::string& what, int maxDepth) {
  // nlohmann's lexer takes a NUL byte for the end of input: `{"steps":2}\0garbage` parsed
  // as valid and a leading NUL read as "unexpected end of input".
  if (const auto nul = text.find('\0'); nul != std::string_view::npos)
    throw InputError(what + ": not valid JSON at " + lineColumn(text, nul + 1) + " (a NUL byte: not a text file)");
  try {
    // First the walk, building nothing: a deep file is refused before a level is built, and
    // a repeated key before nlohmann keeps the last of the two. Then the DOM parse, which
    // reports a syntax error with its position.
    std::vector<std::set<std::string>> keys;  // per open object
    walkJson(text, [&](JsonEvent e, int depth, const std::string& key) {
      if ((e == JsonEvent::ObjectStart || e == JsonEvent::ArrayStart) && depth >= maxDepth) throw TooDeep{};
      if (e == JsonEvent::ObjectStart) keys.emplace_back();
      if (e == JsonEvent::ObjectEnd) keys.pop_back();
      if (e == JsonEvent::Key && !keys.back().insert(key).second) throw DuplicateKey{key};
    });
    return json::parse(text.begin(), text.end());
  } catch (const TooDeep&) {
    throw InputError(what + ": JSON nests deeper than " + std::to_string(maxDepth) + " levels");
  } catch (const DuplicateKey& d) {
    throw InputError(what + ": key '" + d.key.substr(0, 80) + "' appears twice in one object (which one is meant?)");
  } catch (const json::parse_error& e) {
    throw InputError(what + ": not valid JSON at " + lineColumn(text, e.byte) + " (" + reason(e) + ")");
  } catch (const json::exception& e) {
    // out_of_range.406 "number overflow parsing '1e999'" and kin carry no position.
    throw InputError(what + ": not valid JSON (" + reason(e) + ")");
  }
}

std::optional<json> tryParse(std::string_view text, std::string* error, const std::string& what, int maxDepth) {
  try {
    return parse(text, what, maxDepth);
  } catch (const InputError& e) {
    if (error) *error = e.what();
    return std::nullopt;
  }
}

json readFile(const std::string& path, uint64_t maxBytes, int maxDepth) {
  // readFileBuffer refuses directories, FIFOs and devices before reading (O_NONBLOCK open).
  const io::SharedBytes bytes = io::readFileBuffer(path, maxBytes);
  return parse(bytes.view(), path, maxDepth);
}

json readObjectFile(const std::string& path, uint64_t maxBytes) {
  json j = readFile(path, maxBytes);
  if (!j.is_object()) throw InputError(path + ": expected a JSON object, got " + std::string(j.type_name()));
  return j;
}

}  // namespace lwb::jsonio
