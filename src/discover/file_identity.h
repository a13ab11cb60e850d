// file_identity.h: which instruction files are the same file, so each one is loaded once.
//
// Two paths name the same file when stat(2) (following symlinks) gives the same device and inode.
// Some filesystems (certain FUSE and network mounts, Windows shares) report inode 0; then the
// canonical path (all symlinks resolved) is the identity instead.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>

namespace strata::discover {

struct FileIdentity {
  uint64_t device = 0;
  uint64_t inode = 0;     // 0: unknown, `canonical` decides
  std::string canonical;  // filled only when inode is 0
};

// The identity from stat results; `path` is canonicalised only when `inode` is 0.
FileIdentity MakeIdentity(uint64_t device, uint64_t inode, const std::filesystem::path& path);

// stat(2) of `path` following symlinks; nullopt when it does not exist or cannot be read.
std::optional<FileIdentity> IdentityOf(const std::filesystem::path& path);

// Identities seen so far, each with the display path it was first seen under.
class IdentitySet {
 public:
  // The display path a file was first recorded under, or nullptr.
  const std::string* Find(const FileIdentity& id) const;
  void Insert(const FileIdentity& id, std::string label);

 private:
  std::map<std::pair<uint64_t, uint64_t>, std::string> by_inode_;
  std::map<std::string, std::string> by_path_;
};

}  // namespace strata::discover
