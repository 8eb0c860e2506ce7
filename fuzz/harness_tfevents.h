// The TensorBoard event-file fuzz harness (issue 29 §3; contract: see harness_safetensors.h).
// scanTfEvents never throws: every outcome is scalars, warnings or "still being written",
// and it must consume only whole records.
#pragma once

#include "io/tfevents.h"

#include <cstdint>
#include <stdexcept>
#include <string>

namespace lwb::fuzz {

inline void runTfEvents(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const auto scan = io::scanTfEvents(bytes, "fuzz");
  if (scan.nextOffset > size) throw std::logic_error("tfevents scan consumed more bytes than the file has");
  for (const auto& s : scan.scalars)
    if (s.tag.empty()) throw std::logic_error("tfevents scalar without a tag");
  // Continuing from where it stopped reads nothing new.
  const auto again = io::scanTfEvents(bytes, "fuzz", scan.nextOffset);
  if (!again.scalars.empty()) throw std::logic_error("tfevents rescan from nextOffset found more scalars");
}

}  // namespace lwb::fuzz
