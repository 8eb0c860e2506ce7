// Whole-file reads with a size limit and crash-safe writes, shared by the tensor-file
// readers and writers. Torch-free.
#pragma once

#include "common/cancel.h"
#include "io/raw_tensor.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>

namespace lwb::io {

// The ceiling for one tensor file read into memory. Real checkpoints we inspect are up to a
// few GB (GPT-2 XL in float32 is 6.2 GB); anything beyond 32 GiB is refused before a byte
// is allocated.
inline constexpr uint64_t kMaxTensorFileBytes = uint64_t{32} << 30;

// The bytes of the regular file at `path`, read once into a shared buffer that tensor
// records view into. Large files go into an anonymous mapping populated in one call: on
// these VMs first-touch page faults run at ~100 MB/s, so faulting a 500 MB buffer page by
// page took 5–6 s against ~1.5 s populated (docs/BENCHMARKS.md). Throws InputError ("<path>: ...") if the file is missing, a directory,
// not a regular file (a FIFO or device could block or never end), unreadable, larger than
// maxBytes, or shorter than its size said (truncated while read).
// `cancel` (a page's job flag): checked between chunks of kReadChunkBytes, so a 2 GiB read
// stops within one chunk instead of holding a closing window for the whole read (issue 33);
// throws lwb::Cancelled ("<path>: reading cancelled") then.
inline constexpr uint64_t kReadChunkBytes = uint64_t{8} << 20;
SharedBytes readFileBuffer(const std::string& path, uint64_t maxBytes = kMaxTensorFileBytes,
                           const CancelFlag* cancel = nullptr);

// A writable buffer of `size` bytes for a reader to fill (a file, a decompressed member):
// a plain string below 1 MiB, else an anonymous mapping populated in one call (see above).
// `data` points at it; the returned SharedBytes owns it. Throws InputError("<what>: ...") when
// the memory cannot be had.
SharedBytes allocateBuffer(uint64_t size, const std::string& what, char** data);

// Writes `bytes` so that a crash leaves either the old file or the complete new one, never a
// torn one: write a temporary file in the same directory, fsync it, rename it over `path`,
// fsync the directory (the rename itself is durable only then). Throws std::runtime_error
// ("<path>: ...") on any I/O failure and removes the temporary file.
void writeFileAtomically(const std::string& path, std::string_view bytes);

// Why creating the folder `path` failed with `ec`, for a message: " (afile is a file, not a
// folder)" when a part of the path is a file (ENOTDIR named the wrong thing: the new folder),
// else " (<ec's message>)"; empty without an error.
std::string creationFailure(const std::string& path, const std::error_code& ec);

}  // namespace lwb::io
