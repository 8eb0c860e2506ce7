// The Lipschitz Workbench version: CMake's PROJECT_VERSION (the top-level project() call)
// is its one source; config.json, `lipschitz-cli --version` and the app all read it here.
#pragma once

#include <string_view>

namespace lwb {

std::string_view version();  // "major.minor.patch"

}  // namespace lwb
