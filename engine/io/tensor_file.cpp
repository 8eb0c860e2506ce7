#include "io/tensor_file.h"

#include "io/input_error.h"
#include "io/model_folder.h"
#include "io/npy_format.h"
#include "io/npz.h"
#include "io/pytorch_archive.h"
#include "io/safetensors.h"
#include "io/zip_archive.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

namespace lwb::io {
namespace {

// An 8-byte header length, then the JSON object's '{'. The length is not checked here so that
// a truncated download gets the safetensors reader's precise message rather than
// "unknown format".
bool looksLikeSafetensors(std::string_view b) { return b.size() >= 9 && b[8] == '{'; }

bool isLegacyPickle(std::string_view b) { return b.size() >= 2 && static_cast<unsigned char>(b[0]) == 0x80 && b[1] == '\x02'; }

// Every kind decodeTensorFile tells apart, from the first 16 bytes (or the whole file).
bool knownMagic(std::string_view b) {
  return b.compare(0, 6, "\x93NUMPY") == 0 || hasZipMagic(b) || looksLikeSafetensors(b) || isLegacyPickle(b);
}

}  // namespace

namespace {

// What an unreadable file is, where its first bytes tell: a Git LFS pointer (a clone without
// `git lfs pull`) is a common reason a checkpoint "is not" one.
std::string unknownFormat(const std::string& what, std::string_view head) {
  if (head.starts_with("version https://git-lfs.github.com/spec/"))
    return what + ": a Git LFS pointer, not the file's data (fetch it with `git lfs pull`)";
  return what + ": unknown format (expected .safetensors, .npy, .npz or a PyTorch .pt zip archive)";
}

}  // namespace

TensorFile decodeTensorFile(SharedBytes bytes, const std::string& what,
                            const std::string& stem) {
  const std::string_view b = bytes.view();
  if (b.empty()) throw InputError(what + ": empty file");
  TensorFile file;
  if (b.compare(0, 6, "\x93NUMPY") == 0) {
    file.format = "npy";
    file.tensors.push_back(decodeNpyRecord(bytes, stem, what));
  } else if (hasZipMagic(b)) {
    const ZipArchive zip(bytes, what);
    bool allNpy = !zip.members().empty();
    for (const ZipMember& m : zip.members()) allNpy = allNpy && m.name.ends_with(".npy");
    if (isPytorchArchive(zip)) file = decodePytorchArchive(zip);
    else if (allNpy) file = decodeNpz(zip);
    else throw InputError(what + ": a zip archive that is neither an .npz (only .npy members) nor a PyTorch "
                                 "archive (<archive>/data.pkl)");
  } else if (looksLikeSafetensors(b)) {
    file = decodeSafetensors(bytes, what);
  } else if (isLegacyPickle(b)) {
    throw InputError(what + ": a legacy (pre-1.6, non-zip) PyTorch file; re-save it with a current torch.save");
  } else {
    throw InputError(unknownFormat(what, b));
  }
  return file;
}

namespace {

// The first bytes of a regular file (fewer when it is shorter); "" for anything else, which
// readFileBuffer then reports precisely (missing, a folder, a FIFO, unreadable).
std::string fileHead(const std::string& path, size_t n) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return {};
  std::string head;
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    head.resize(n);
    ssize_t got = 0;
    do got = ::read(fd, head.data(), n);
    while (got < 0 && errno == EINTR);
    head.resize(got > 0 ? static_cast<size_t>(got) : 0);
  }
  ::close(fd);
  return head;
}

}  // namespace

TensorFile readTensorFile(const std::filesystem::path& path, uint64_t maxBytes, const std::atomic<bool>* cancel) {
  const std::string p = path.string();
  // A Hugging Face model folder (index.json + shards, or one weights file) reads as one model.
  if (std::error_code ec; std::filesystem::is_directory(path, ec)) return readModelFolder(path, maxBytes);
  // Sniffed from the first bytes: a 2 GiB file of another kind is refused at once, not after
  // it was read into memory.
  if (const std::string head = fileHead(p, 64); !head.empty() && !knownMagic(head.substr(0, 16)))
    throw InputError(unknownFormat(p, head));
  TensorFile file = decodeTensorFile(readFileBuffer(p, maxBytes, cancel), p, path.stem().string());
  file.path = p;
  return file;
}

}  // namespace lwb::io
