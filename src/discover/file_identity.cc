// file_identity.cc: device+inode identity with a canonical-path fallback.
#include "discover/file_identity.h"

#include <sys/stat.h>

namespace strata::discover {

FileIdentity MakeIdentity(uint64_t device, uint64_t inode, const std::filesystem::path& path) {
  FileIdentity id{device, inode, {}};
  if (inode == 0) {
    std::error_code ec;
    std::filesystem::path canonical = std::filesystem::weakly_canonical(path, ec);
    id.canonical = ec ? path.lexically_normal().string() : canonical.string();
  }
  return id;
}

std::optional<FileIdentity> IdentityOf(const std::filesystem::path& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return std::nullopt;
  return MakeIdentity(static_cast<uint64_t>(st.st_dev), static_cast<uint64_t>(st.st_ino), path);
}

const std::string* IdentitySet::Find(const FileIdentity& id) const {
  if (id.inode != 0) {
    auto it = by_inode_.find({id.device, id.inode});
    return it == by_inode_.end() ? nullptr : &it->second;
  }
  auto it = by_path_.find(id.canonical);
  return it == by_path_.end() ? nullptr : &it->second;
}

void IdentitySet::Insert(const FileIdentity& id, std::string label) {
  if (id.inode != 0) {
    by_inode_.emplace(std::make_pair(id.device, id.inode), std::move(label));
  } else {
    by_path_.emplace(id.canonical, std::move(label));
  }
}

}  // namespace strata::discover
