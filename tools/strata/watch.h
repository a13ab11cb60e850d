// watch.h: `strata compile --watch`: recompiles when the instruction source or strata.toml
// changes.
#pragma once

#include <functional>
#include <string>

namespace strata::cli {

// Watches (inotify) the directory of `source` (relative to `root`; "" = strata.toml's source,
// else AGENTS.md) and `root` for a close-after-write, move, create or delete of the source file or
// strata.toml, runs `compile` once at the start and again after each burst of changes (debounced:
// 200 ms without a further event), and prints one line per recompile. The watches are in place
// before the first compile. Returns after `limit` recompiles (0 = never; Ctrl-C stops) with the
// last compile's exit status, or 2 when inotify is unavailable; 1 when `timeout_ms` (> 0) passes
// without a change (a bound for tests).
int WatchCompile(const std::string& root, const std::string& source,
                 const std::function<int()>& compile, int limit, int timeout_ms);

}  // namespace strata::cli
