#pragma once

#include <stdexcept>
#include <string>

namespace lwb {

// Bad input from outside (a file, a flag, a config value): the message names what is wrong
// and is meant for the user verbatim. The CLI maps it to exit code 2.
class InputError : public std::runtime_error {
 public:
  explicit InputError(const std::string& what) : std::runtime_error(visible(what)) {}
  explicit InputError(const char* what) : std::runtime_error(what) {}

 private:
  // A message is one line of text, but names in it come from files: a NUL (a safetensors
  // tensor named "x\u0000y") ended what() there, a newline made the CLI print only the part
  // before it, the reason lost. Control characters are written as escapes instead.
  static std::string visible(const std::string& s) {
    std::string out;
    out.reserve(s.size());
    for (const char c : s) {
      const auto u = static_cast<unsigned char>(c);
      if (u >= 0x20 && u != 0x7f) out += c;
      else if (c == '\0') out += "\\0";
      else if (c == '\n') out += "\\n";
      else if (c == '\t') out += "\\t";
      else {
        static constexpr char kHex[] = "0123456789abcdef";
        out += "\\x";
        out += kHex[u >> 4];
        out += kHex[u & 15];
      }
    }
    return out;
  }
};

}  // namespace lwb
