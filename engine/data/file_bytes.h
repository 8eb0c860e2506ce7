// Bounded reads of hostile files: every size is checked before anything is allocated.
// Internal to engine/data (tests include it to exercise the limits with small values).
#pragma once

#include <cstdint>
#include <string>

namespace lwb::data {

// Default ceiling for one dataset file and for what one gzip file may inflate to. The
// largest real file we read (CIFAR-10 batch, MNIST train images) is ~47 MB.
inline constexpr uint64_t kMaxDatasetFileBytes = uint64_t{1} << 30;

// Size of a regular file at `path`; throws InputError ("<path>: ...") if it is missing, a
// directory, not a regular file (a device or FIFO could block or never end), or larger
// than maxBytes.
uint64_t checkedFileSize(const std::string& path, uint64_t maxBytes);

// Reads exactly `size` bytes into dst; throws InputError if the file is shorter.
void readExactly(const std::string& path, void* dst, uint64_t size);

std::string readWholeFile(const std::string& path, uint64_t maxBytes = kMaxDatasetFileBytes);

bool hasGzipMagic(const std::string& bytes);

// Inflates a gzip stream (concatenated members allowed, as gzip(1) does); throws InputError
// "<what>: ..." for corrupt, truncated or trailing data, or output beyond maxOutBytes.
std::string gunzip(const std::string& bytes, const std::string& what,
                   uint64_t maxOutBytes = kMaxDatasetFileBytes);

// The file's bytes, inflated when it is gzip. A name ending in ".gz" must be gzip: a
// ".gz" holding something else is usually a failed download (an HTML page).
std::string readMaybeGzipped(const std::string& path, uint64_t maxBytes = kMaxDatasetFileBytes);

}  // namespace lwb::data
