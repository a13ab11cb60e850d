// watch.cc: the inotify loop behind `strata compile --watch`. Only events naming the source file
// or strata.toml count, so the compile's own writes (CLAUDE.md beside AGENTS.md) never trigger
// another compile; a burst of events (an editor's save is often several) is one recompile.
#include "watch.h"

#include <poll.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <set>

#include "strata/compile.h"

namespace strata::cli {

namespace fs = std::filesystem;

namespace {

constexpr int kDebounceMs = 200;
constexpr uint32_t kEvents = IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE;

// The source strata.toml names (or AGENTS.md), read by the same parser the compile uses; a
// strata.toml the compile will refuse leaves AGENTS.md watched (the compile reports the error).
std::string SourceName(const fs::path& root, const std::string& source) {
  if (!source.empty()) return source;
  return CompileSourceOf(root);
}

// Reads pending events; true when one names a watched file.
bool DrainRelevant(int fd, const std::set<std::string>& names) {
  alignas(struct inotify_event) std::array<char, 4096> buf{};
  bool relevant = false;
  ssize_t n = read(fd, buf.data(), buf.size());
  for (ssize_t at = 0; n > 0 && at < n;) {
    const auto* event = reinterpret_cast<const struct inotify_event*>(buf.data() + at);
    if (event->len > 0 && names.count(event->name) != 0) relevant = true;
    at += static_cast<ssize_t>(sizeof(struct inotify_event) + event->len);
  }
  return relevant;
}

// Blocks until a relevant event, then until kDebounceMs pass without another event. False when
// `timeout_ms` (> 0) passed first.
bool WaitForChange(int fd, const std::set<std::string>& names, int timeout_ms) {
  pollfd p{fd, POLLIN, 0};
  const int wait = timeout_ms > 0 ? timeout_ms : -1;
  bool changed = false;
  while (!changed) {
    int ready = poll(&p, 1, wait);
    if (ready == 0) return false;
    if (ready > 0) changed = DrainRelevant(fd, names);
  }
  while (poll(&p, 1, kDebounceMs) > 0) DrainRelevant(fd, names);
  return true;
}

}  // namespace

int WatchCompile(const std::string& root, const std::string& source,
                 const std::function<int()>& compile, int limit, int timeout_ms) {
  const fs::path source_path = fs::path(root) / SourceName(root, source);
  int fd = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
  if (fd < 0 || inotify_add_watch(fd, root.c_str(), kEvents) < 0) {
    std::fprintf(stderr, "error: cannot watch %s (inotify): %s\n", root.c_str(),
                 std::strerror(errno));
    if (fd >= 0) close(fd);
    return 2;
  }
  std::set<std::string> names = {"strata.toml", source_path.filename().string()};
  const fs::path source_dir = source_path.parent_path();
  if (source_dir.lexically_normal() != fs::path(root).lexically_normal()) {
    inotify_add_watch(fd, source_dir.c_str(), kEvents);
  }
  int status = compile();
  std::fflush(stdout);
  for (int done = 0; limit == 0 || done < limit; ++done) {
    if (!WaitForChange(fd, names, timeout_ms)) {
      std::fprintf(stderr, "error: no change within the watch timeout\n");
      status = 1;
      break;
    }
    std::printf("change detected: recompiling %s\n", source_path.filename().c_str());
    status = compile();
    std::fflush(stdout);
  }
  close(fd);
  return status;
}

}  // namespace strata::cli
