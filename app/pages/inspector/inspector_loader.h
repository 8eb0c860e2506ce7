// Reads and inspects a tensor file on a worker thread. The only Inspector file that includes
// LibTorch headers (engine/inspect and engine/run); everything else sees inspected_file.h.
#pragma once

#include "app/pages/inspector/inspected_file.h"
#include "common/cancel.h"

#include <functional>

namespace lwb::app::pages {

// progress(done, total) counts tensors after the file is read (total 0 while reading).
// Throws InputError naming the file for anything unreadable or malformed, Cancelled when
// `cancel` is set before any tensor was inspected; a later cancel returns the tensors so far
// with complete = false.
InspectedFile inspectFile(const QString& path, const std::function<void(int, int)>& progress,
                          const CancelFlag* cancel);

}  // namespace lwb::app::pages
