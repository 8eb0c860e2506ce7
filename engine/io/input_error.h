#pragma once

#include <stdexcept>
#include <string>

namespace lwb {

// Bad input from outside (a file, a flag, a config value): the message names what is wrong
// and is meant for the user verbatim. The CLI maps it to exit code 2.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace lwb
