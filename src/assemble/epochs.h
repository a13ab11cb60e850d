// epochs.h: context epochs: keyed snapshots of context sources, their diff, and the
// context-update notice that announces a diff (the cache events a rebuild reports are in
// assemble.h).
//
// The system prompt is rendered once from a baseline snapshot and then left alone. When a source
// changes (AGENTS.md edited, the working directory moved, a tool became available), the change is
// announced at the next safe boundary (a completed turn, never inside a tool-call streak) by one
// appended context-update message holding a diff against what the model last saw. Unchanged
// sources cost nothing. The baseline itself is rebuilt only at compaction or an incompatible change
// (model family switch, persona or tool surface changed), reported as a CacheEvent.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace strata {

// Source key -> text. Keys are stable names: "cwd", "instructions:<path>", "skills", "notes",
// "plan", "tool:<name>" (canonical definition). std::map, so iteration is in key byte order.
using SourceSnapshot = std::map<std::string, std::string>;

enum class ChangeKind { kAdded, kRemoved, kModified };

struct SourceChange {
  std::string key;
  ChangeKind kind = ChangeKind::kModified;
  std::string before;  // empty for kAdded
  std::string after;   // empty for kRemoved
};

// The changes from `before` to `after`, in key order. Equal sources produce nothing.
std::vector<SourceChange> DiffSnapshots(const SourceSnapshot& before, const SourceSnapshot& after);

// A line diff of `before` -> `after` in unified form with `context` lines of context:
// "@@ -a,b +c,d @@" hunk headers, then " ", "-" and "+" lines, each ending in "\n". Lines are
// split at "\n"; a missing final newline is not marked. Above 4000 lines on either side the diff
// is the whole of `before` removed and the whole of `after` added (one hunk), to bound the cost.
std::string UnifiedLineDiff(std::string_view before, std::string_view after, int context = 1);

// The text of the context-update notice for `changes` (non-empty), `epoch` numbering the notice
// within the session (1 for the first):
//   <context-update epoch="N">
//   These sources changed since they were last shown; the new text replaces the old.
//   ## <key> (added|removed|modified)
//   <full text for added, a unified diff for modified, nothing for removed>
//   </context-update>
std::string RenderContextUpdate(const std::vector<SourceChange>& changes, int epoch);

}  // namespace strata
