// move_aside.cc: MoveAdoptedAside (compile.h): the adopted files a client would still load beside
// its compiled file moved to .strata/adopted/, all or nothing, never replacing or deleting a file.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "io/contained_open.h"
#include "strata/compile.h"

namespace strata {

namespace fs = std::filesystem;

namespace {

// One planned move: both directories opened beneath the root before any file moves.
struct Move {
  AdoptedFile* file = nullptr;
  std::string to;  // relative to the root
  UniqueFd from_dir, to_dir;
  std::string from_name, to_name;
};

// rename(2) that never replaces an existing name: renameat2 RENAME_NOREPLACE, or where the
// filesystem lacks it, link(2) (which refuses an existing name too) then unlink of the old name.
int RenameNoReplace(int from_dir, const std::string& from, int to_dir, const std::string& to) {
  if (::renameat2(from_dir, from.c_str(), to_dir, to.c_str(), RENAME_NOREPLACE) == 0) return 0;
  if (errno != EINVAL && errno != ENOSYS) return -1;
  if (::linkat(from_dir, from.c_str(), to_dir, to.c_str(), 0) != 0) return -1;
  return ::unlinkat(from_dir, from.c_str(), 0);
}

tl::unexpected<Error> OpenError(const OpenedPath& opened, const fs::path& root,
                                const std::string& what) {
  if (opened.failure == OpenFailure::kOutsideRoot) {
    return MakeError(ErrorKind::kConflict, OutsideRootMessage(what, root), {what});
  }
  return MakeError(ErrorKind::kIo, "cannot open the directory of " + what + ": " + opened.detail,
                   {what});
}

// Opens both directories of `file`'s move and checks that the file is there and that nothing is
// at the destination yet.
Result<Move> PlanMove(const fs::path& root, int root_fd, AdoptedFile* file) {
  Move move;
  move.file = file;
  const fs::path from(file->path);
  const fs::path to = AdoptedAsidePath(file->path);
  move.to = to.generic_string();
  move.from_name = from.filename().string();
  move.to_name = to.filename().string();
  OpenedPath from_dir = OpenContainedAt(root, root_fd, from.parent_path(), OpenIntent::kDirectory);
  if (!from_dir.ok()) return OpenError(from_dir, root, file->path);
  struct stat st {};
  if (::fstatat(from_dir.fd.get(), move.from_name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
    return MakeError(ErrorKind::kNotFound,
                     file->path + " is gone since adopt read it; nothing was moved", {file->path});
  }
  OpenedPath to_dir = OpenContainedDirectory(root, root_fd, to.parent_path(), true);
  if (!to_dir.ok()) return OpenError(to_dir, root, move.to);
  if (::fstatat(to_dir.fd.get(), move.to_name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0) {
    return MakeError(ErrorKind::kInvalidArgument,
                     move.to +
                         " exists (an earlier --remove-adopted moved a file there): move it "
                         "away first; nothing was moved",
                     {move.to});
  }
  move.from_dir = std::move(from_dir.fd);
  move.to_dir = std::move(to_dir.fd);
  return move;
}

}  // namespace

Status MoveAdoptedAside(const fs::path& given_root, AdoptFromReport* report) {
  std::error_code ec;
  const fs::path root = fs::canonical(given_root, ec);
  if (ec) return MakeError(ErrorKind::kNotFound, ec.message(), {given_root.string()});
  const UniqueFd root_fd(::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  std::vector<Move> moves;
  for (AdoptedFile& file : report->files) {
    if (!file.loads_beside || !file.moved_to.empty()) continue;
    STRATA_TRY_ASSIGN(Move move, PlanMove(root, root_fd.get(), &file));
    moves.push_back(std::move(move));
  }
  for (size_t i = 0; i < moves.size(); ++i) {
    Move& m = moves[i];
    if (RenameNoReplace(m.from_dir.get(), m.from_name, m.to_dir.get(), m.to_name) == 0) continue;
    const std::string why = std::strerror(errno);
    // Back where they were: the tree is as before the call.
    for (size_t j = i; j-- > 0;) {
      RenameNoReplace(moves[j].to_dir.get(), moves[j].to_name, moves[j].from_dir.get(),
                      moves[j].from_name);
    }
    return MakeError(ErrorKind::kIo,
                     "cannot move " + m.file->path + " to " + m.to + ": " + why +
                         "; the files already moved were moved back",
                     {m.file->path});
  }
  for (Move& m : moves) m.file->moved_to = m.to;
  return {};
}

}  // namespace strata
