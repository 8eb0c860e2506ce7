// Small helpers shared by the suites that write files and check error messages.
#pragma once

#include "io/input_error.h"

#include <QString>

#include <fstream>
#include <functional>
#include <string>

namespace lwb::test {

inline void writeFile(const QString& path, const std::string& bytes, bool append = false) {
  std::ofstream out(path.toStdString(), std::ios::binary | (append ? std::ios::app : std::ios::trunc));
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// The message of the InputError f throws, or "<no InputError>".
inline QString inputErrorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return QString::fromUtf8(e.what());
  }
  return QStringLiteral("<no InputError>");
}

}  // namespace lwb::test
