#include "io/npz.h"

#include "io/input_error.h"

namespace lwb::io {

TensorFile decodeNpz(SharedBytes bytes, const std::string& what,
                     const ZipLimits& zipLimits, const NpyLimits& npyLimits) {
  const ZipArchive zip(std::move(bytes), what, zipLimits);
  return decodeNpz(zip, npyLimits);
}

TensorFile decodeNpz(const ZipArchive& zip, const NpyLimits& npyLimits) {
  const std::string& what = zip.what();
  TensorFile file;
  file.format = "npz";
  for (const ZipMember& m : zip.members()) {
    const std::string memberWhat = what + ": member '" + m.name + "'";
    constexpr std::string_view kSuffix = ".npy";
    if (m.name.size() <= kSuffix.size() || !m.name.ends_with(kSuffix))
      throw InputError(memberWhat + ": not a .npy array (an .npz holds only <name>.npy members)");
    std::string name = m.name.substr(0, m.name.size() - kSuffix.size());
    file.tensors.push_back(decodeNpyRecord(zip.read(m), std::move(name), memberWhat, npyLimits));
  }
  return file;
}

}  // namespace lwb::io
