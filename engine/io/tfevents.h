// TensorBoard event files (`events.out.tfevents.*`, issue 29 §3): scalar summaries, read
// without a protobuf dependency (docs/DESIGN.md "TensorBoard event files"). Torch-free and
// Qt-free; the fuzzer builds it alone.
//
// Framing (TFRecord): uint64 length (little endian), uint32 masked CRC-32C of those 8 bytes,
// `length` bytes of a serialized tensorflow.Event, uint32 masked CRC-32C of the data.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lwb::io {

// A record longer than this is refused (a scalar event is ~50 bytes; images and graphs a few
// MB): a corrupt or hostile length must not allocate or wait for gigabytes.
inline constexpr uint64_t kMaxTfRecordBytes = uint64_t{64} << 20;
// The ceiling for one event file read into memory.
inline constexpr uint64_t kMaxTfEventsFileBytes = uint64_t{2} << 30;

struct TfScalar {
  std::string tag;
  int64_t step = 0;
  double wallTime = 0;
  double value = 0;
};

struct TfEventsScan {
  std::vector<TfScalar> scalars;  // file order
  // One line each: a record whose data CRC did not match (skipped), an event that did not
  // parse (skipped), the point where a corrupt length header stopped the scan.
  std::vector<std::string> warnings;
  // The file ends inside a record: the writer is still writing it (read again later).
  bool stillBeingWritten = false;
  // Bytes consumed by complete records: a follower continues from here.
  uint64_t nextOffset = 0;
  int64_t records = 0;
};

// CRC-32C (Castagnoli) and TFRecord's masking of it: ((crc >> 15) | (crc << 17)) + 0xa282ead8.
uint32_t crc32c(std::string_view bytes);
uint32_t maskedCrc32c(std::string_view bytes);

// Scans `bytes` from `offset` (a record boundary). Never throws for bad content: problems
// are warnings (`what` names the file in them); a length header whose CRC fails, or a length
// above kMaxTfRecordBytes, stops the scan there (nothing after it can be trusted).
TfEventsScan scanTfEvents(std::string_view bytes, const std::string& what, uint64_t offset = 0);

// Reads the file at `path` (InputError for a missing file, a directory, a file larger than
// kMaxTfEventsFileBytes) and scans it. With `offset` > 0 (a follower's `nextOffset`) only the
// bytes from there on are read, and nextOffset counts from the file's start; a file now
// shorter than `offset` is an InputError (it was rewritten: read it again from 0).
TfEventsScan readTfEventsFile(const std::string& path, uint64_t offset = 0);

// Does the file name look like an event file ("events.out.tfevents." prefix)?
bool isTfEventsFileName(std::string_view fileName);

// Compare's column for a TensorBoard tag: common spellings of the workbench's metrics map to
// their keys ("Loss/train", "train/loss", "train_loss" → "train_loss"; "Loss/val",
// "val/loss", "eval/loss" → "val_loss"; accuracy likewise "train_acc" / "val_acc"); any
// other tag is kept as written.
std::string compareKeyForTag(std::string_view tag);

}  // namespace lwb::io
