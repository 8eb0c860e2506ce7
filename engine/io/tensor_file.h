// The door to engine/io for readers: one call reads any tensor file the workbench inspects.
//   .safetensors  (Hugging Face)        → format "safetensors", metadata = __metadata__
//   .npy          (NumPy, one array)    → format "npy", the tensor is named after the file stem
//   .npz          (zip of .npy)         → format "npz"
//   .pt / .pth    (torch.save zip)      → format "pytorch"
//   a folder      (Hugging Face model)  → format "huggingface" (model_folder.h)
// The format is taken from the file's first bytes, never from its extension.
#pragma once

#include "io/file_io.h"
#include "io/raw_tensor.h"

#include <filesystem>

namespace lwb::io {

// Reads the whole file (at most maxBytes, default kMaxTensorFileBytes = 32 GiB) and decodes
// it. Throws InputError("<path>: <problem>") for a missing, unreadable, empty or oversized
// file, a folder that is no model folder, an unknown format and anything malformed inside a known one.
// `cancel`: see readFileBuffer (lwb::Cancelled while the bytes are read).
TensorFile readTensorFile(const std::filesystem::path& path, uint64_t maxBytes = kMaxTensorFileBytes,
                          const std::atomic<bool>* cancel = nullptr);

// Same for bytes already in memory; `what` names them in errors and `stem` names a lone
// .npy array.
TensorFile decodeTensorFile(SharedBytes bytes, const std::string& what,
                            const std::string& stem = "array");

}  // namespace lwb::io
