#include "common/version.h"

// engine/CMakeLists.txt defines LWB_PROJECT_VERSION for this file alone, so a version bump
// recompiles one file.
#ifndef LWB_PROJECT_VERSION
#error "LWB_PROJECT_VERSION must come from CMake's PROJECT_VERSION"
#endif

namespace lwb {

std::string_view version() { return LWB_PROJECT_VERSION; }

}  // namespace lwb
