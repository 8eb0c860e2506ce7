#include "io/file_io.h"

#include "io/input_error.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace lwb::io {
namespace {

[[noreturn]] void fail(const std::string& path, const std::string& msg) {
  throw InputError(path + ": " + msg);
}

// Closes on every exit path, including the throwing ones.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

std::string errnoText() { return std::strerror(errno); }

// A target the user named that cannot be written (permission, a folder, a read-only file
// system, a missing folder) is bad input, exit 2; anything else (disk full, I/O) stays a
// runtime failure.
[[noreturn]] void throwWriteError(const std::string& message, int err) {
  if (err == EACCES || err == EPERM || err == EROFS || err == EISDIR || err == ENOENT || err == ENOTDIR)
    throw InputError(message);
  throw std::runtime_error(message);
}

// Below this, a plain string; above, an anonymous mapping populated in one system call.
constexpr uint64_t kMapThreshold = uint64_t{1} << 20;

SharedBytes mapAnonymous(uint64_t size, const std::string& what, char** data, int extraFlags) {
  const auto len = static_cast<size_t>(size);
  void* p = ::mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | extraFlags, -1, 0);
  if (p == MAP_FAILED) fail(what, "not enough memory for " + std::to_string(size) + " bytes");
  *data = static_cast<char*>(p);
  return SharedBytes(std::shared_ptr<const std::byte>(static_cast<const std::byte*>(p),
                                                      [len](const std::byte* q) { ::munmap(const_cast<std::byte*>(q), len); }),
                     len);
}

SharedBytes allocateUnpopulated(uint64_t size, const std::string& what, char** data) {
  return mapAnonymous(size, what, data, 0);
}

// Reads in chunks, each one's pages faulted in first with one madvise (as MAP_POPULATE does
// for the whole buffer when it is mapped unpopulated), checking `cancel` between chunks.
void readInto(int fd, char* dst, uint64_t size, const std::string& path, const std::atomic<bool>* cancel,
              bool populate) {
  uint64_t done = 0;
  while (done < size) {
    if (cancel && cancel->load()) throw Cancelled(path + ": reading cancelled");
    const uint64_t chunk = std::min(kReadChunkBytes, size - done);
    if (populate) {
      const auto page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
      const auto from = reinterpret_cast<uintptr_t>(dst + done) & ~(page - 1);
      ::madvise(reinterpret_cast<void*>(from), reinterpret_cast<uintptr_t>(dst + done + chunk) - from,
                MADV_POPULATE_WRITE);  // a kernel without it (before 5.14) faults page by page
    }
    const ssize_t n = ::read(fd, dst + done, static_cast<size_t>(chunk));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail(path, "read error (" + errnoText() + ")");
    if (n == 0) fail(path, "short read: the file shrank while it was read");
    done += static_cast<uint64_t>(n);
  }
}

}  // namespace

SharedBytes readFileBuffer(const std::string& path, uint64_t maxBytes, const std::atomic<bool>* cancel) {
  Fd f;
  // O_NONBLOCK: opening a FIFO must not wait for a writer; regular files ignore it.
  f.fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (f.fd < 0) {
    if (errno == ENOENT) fail(path, "no such file");
    if (errno == EACCES) fail(path, "permission denied");
    fail(path, "cannot open for reading (" + errnoText() + ")");
  }
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) fail(path, "cannot determine the file size (" + errnoText() + ")");
  if (S_ISDIR(st.st_mode)) fail(path, "is a directory, expected a file");
  if (!S_ISREG(st.st_mode)) fail(path, "is not a regular file");
  const auto size = static_cast<uint64_t>(st.st_size);
  if (size > maxBytes)
    fail(path, "file of " + std::to_string(size) + " bytes is larger than the limit of " +
                   std::to_string(maxBytes) + " bytes");
  char* data = nullptr;
  // A cancellable read maps its buffer unpopulated and faults it in chunk by chunk: populating
  // 2 GiB in one call takes seconds that no flag can interrupt.
  const bool chunked = cancel && size >= kMapThreshold;
  SharedBytes buffer = chunked ? allocateUnpopulated(size, path, &data) : allocateBuffer(size, path, &data);
  readInto(f.fd, data, size, path, cancel, chunked);
  return buffer;
}

SharedBytes allocateBuffer(uint64_t size, const std::string& what, char** data) {
  if (size < kMapThreshold) {
    auto small = std::make_shared<std::string>(static_cast<size_t>(size), '\0');
    *data = small->data();
    return SharedBytes(std::shared_ptr<const std::string>(std::move(small)));
  }
  return mapAnonymous(size, what, data, MAP_POPULATE);
}

void writeFileAtomically(const std::string& path, std::string_view bytes) {
  namespace fs = std::filesystem;
  const fs::path target(path);
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  // A per-process suffix keeps two writers of the same target from sharing a temp file.
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  auto failWrite = [&](const std::string& what) {
    const int err = errno;
    const std::string why = errnoText();
    ::unlink(tmp.c_str());
    throwWriteError(path + ": " + what + " (" + why + ")", err);
  };
  // The rename below would put a regular file in the place of a device, FIFO or socket:
  // `--out /dev/full` replaced the device node (as root) and reported success.
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
    throw InputError(path + ": is not a regular file (a device, FIFO or socket); choose a file name");
  // The rename below would replace a file the user cannot write (mode 0444, another owner's)
  // without a word: refuse it as writing it in place would be refused.
  if (::access(path.c_str(), F_OK) == 0 && ::access(path.c_str(), W_OK) != 0) {
    const int err = errno;
    throwWriteError(path + ": cannot replace it (" + std::strerror(err) + ")", err);
  }
  {
    Fd f;
    f.fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (f.fd < 0) {
      const int err = errno;
      throwWriteError(path + ": cannot open for writing (" + std::strerror(err) + ")", err);
    }
    size_t done = 0;
    while (done < bytes.size()) {
      const ssize_t n = ::write(f.fd, bytes.data() + done, bytes.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) failWrite("write failed");
      done += static_cast<size_t>(n);
    }
    if (::fsync(f.fd) != 0) failWrite("fsync failed");
    const int fd = f.fd;
    f.fd = -1;
    if (::close(fd) != 0) failWrite("close failed");
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) failWrite("cannot rename the temporary file");
  Fd d;
  d.fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  // Some file systems refuse fsync on directories; the data itself is already durable.
  if (d.fd >= 0) ::fsync(d.fd);
}

std::string creationFailure(const std::string& path, const std::error_code& ec) {
  if (!ec) return {};
  if (ec == std::errc::not_a_directory) {
    std::error_code ignored;
    for (std::filesystem::path p = std::filesystem::path(path).parent_path(); !p.empty(); p = p.parent_path()) {
      if (std::filesystem::exists(p, ignored) && !std::filesystem::is_directory(p, ignored))
        return " (" + p.string() + " is a file, not a folder)";
      if (p == p.parent_path()) break;
    }
  }
  return " (" + ec.message() + ")";
}

}  // namespace lwb::io
