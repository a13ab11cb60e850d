// epochs.cc: snapshot diffs, the line diff and the context-update notice text. The notice is the
// only way a source change reaches the model mid-session, so the prefix above it never moves.
#include "assemble/epochs.h"
#include "text/text.h"
#include <dtl/dtl.hpp>

#include <algorithm>
#include <span>

#include "base/common_prefix.h"
#include "base/enum_names.h"
#include "strata/assemble.h"

namespace strata {

std::vector<SourceChange> DiffSnapshots(const SourceSnapshot& before, const SourceSnapshot& after) {
  std::vector<SourceChange> changes;
  auto b = before.begin();
  auto a = after.begin();
  while (b != before.end() || a != after.end()) {
    if (a == after.end() || (b != before.end() && b->first < a->first)) {
      changes.push_back({b->first, ChangeKind::kRemoved, b->second, ""});
      ++b;
    } else if (b == before.end() || a->first < b->first) {
      changes.push_back({a->first, ChangeKind::kAdded, "", a->second});
      ++a;
    } else {
      if (b->second != a->second) {
        changes.push_back({a->first, ChangeKind::kModified, b->second, a->second});
      }
      ++a;
      ++b;
    }
  }
  return changes;
}

namespace {

// One line of the edit script: kept (' '), removed ('-') or added ('+'), with the 0-based line
// numbers in before/after at that point (for '+', `a_line` is where it is inserted; for '-',
// `b_line` likewise).
struct Op {
  char tag;
  std::string_view line;
  size_t a_line = 0, b_line = 0;
};

constexpr size_t kDiffLimit = 4000;  // lines in the changed middle, on either side

// Appends the edit script of a -> b (no common head or tail) through dtl's O(NP) diff (Wu,
// Manber, Myers and Miller). Within each run of changes the removals come before the additions,
// as unified diffs show them.
void AppendMiddleOps(std::span<const std::string_view> a, std::span<const std::string_view> b,
                     std::vector<Op>* ops) {
  std::vector<std::string_view> removed, added;
  auto flush = [&] {
    for (auto line : removed) ops->push_back({'-', line});
    for (auto line : added) ops->push_back({'+', line});
    removed.clear();
    added.clear();
  };
  if (a.size() > kDiffLimit || b.size() > kDiffLimit) {
    removed.assign(a.begin(), a.end());
    added.assign(b.begin(), b.end());
    return flush();
  }
  dtl::Diff<std::string_view> diff(std::vector<std::string_view>(a.begin(), a.end()),
                                   std::vector<std::string_view>(b.begin(), b.end()));
  diff.compose();
  for (const auto& [line, info] : diff.getSes().getSequence()) {
    if (info.type == dtl::SES_DELETE) {
      removed.push_back(line);
    } else if (info.type == dtl::SES_ADD) {
      added.push_back(line);
    } else {
      flush();
      ops->push_back({' ', line});
    }
  }
  flush();
}

std::vector<Op> DiffOps(const std::vector<std::string_view>& a,
                        const std::vector<std::string_view>& b) {
  // The common head and tail are kept as they are: edits are usually local, and the diff then
  // only sees the changed middle.
  size_t head = CommonPrefixLength<std::string_view>(a, b);
  size_t tail = static_cast<size_t>(
      std::mismatch(a.rbegin(), a.rend() - head, b.rbegin(), b.rend() - head).first - a.rbegin());
  std::vector<Op> ops;
  for (size_t i = 0; i < head; ++i) ops.push_back({' ', a[i]});
  AppendMiddleOps(std::span(a).subspan(head, a.size() - head - tail),
                  std::span(b).subspan(head, b.size() - head - tail), &ops);
  for (size_t i = a.size() - tail; i < a.size(); ++i) ops.push_back({' ', a[i]});
  size_t a_line = 0, b_line = 0;
  for (Op& op : ops) {
    op.a_line = a_line;
    op.b_line = b_line;
    a_line += op.tag != '+';
    b_line += op.tag != '-';
  }
  return ops;
}

}  // namespace

std::string UnifiedLineDiff(std::string_view before, std::string_view after, int context) {
  auto a = SplitLines(before);
  auto b = SplitLines(after);
  std::vector<Op> ops = DiffOps(a, b);
  std::string out;
  size_t k = 0;
  const size_t ctx = context < 0 ? 0 : static_cast<size_t>(context);
  while (k < ops.size()) {
    // Find the next change.
    size_t first = k;
    while (first < ops.size() && ops[first].tag == ' ') ++first;
    if (first == ops.size()) break;
    size_t start = first >= ctx ? first - ctx : 0;
    if (start < k) start = k;
    // Extend the hunk while changes are within 2*ctx lines of each other.
    size_t end = first;
    size_t last_change = first;
    while (end < ops.size()) {
      if (ops[end].tag != ' ') last_change = end;
      if (end - last_change > 2 * ctx) break;
      ++end;
    }
    size_t stop = std::min(ops.size(), last_change + 1 + ctx);
    size_t a_count = 0, b_count = 0;
    for (size_t i = start; i < stop; ++i) {
      if (ops[i].tag != '+') ++a_count;
      if (ops[i].tag != '-') ++b_count;
    }
    size_t a_start = ops[start].a_line + (a_count ? 1 : 0);
    size_t b_start = ops[start].b_line + (b_count ? 1 : 0);
    out += "@@ -" + std::to_string(a_start) + "," + std::to_string(a_count) + " +" +
           std::to_string(b_start) + "," + std::to_string(b_count) + " @@\n";
    for (size_t i = start; i < stop; ++i) {
      out.push_back(ops[i].tag);
      out.append(ops[i].line);
      out.push_back('\n');
    }
    k = stop;
  }
  return out;
}

std::string RenderContextUpdate(const std::vector<SourceChange>& changes, int epoch) {
  std::string out = "<context-update epoch=\"" + std::to_string(epoch) + "\">\n";
  out += "These sources changed since they were last shown; the new text replaces the old.\n";
  for (const auto& change : changes) {
    out += "## " + change.key;
    switch (change.kind) {
      case ChangeKind::kAdded:
        out += " (added)\n";
        out += change.after;
        if (!change.after.empty() && change.after.back() != '\n') out += "\n";
        break;
      case ChangeKind::kRemoved:
        out += " (removed)\n";
        break;
      case ChangeKind::kModified:
        out += " (modified)\n";
        out += UnifiedLineDiff(change.before, change.after);
        break;
    }
  }
  out += "</context-update>";
  return out;
}

namespace {

constexpr EnumName<CacheEventReason> kCacheEventReasonNames[] = {
    {CacheEventReason::kCompaction, "compaction"},
    {CacheEventReason::kModelFamilySwitch, "model-family-switch"},
    {CacheEventReason::kPersonaChanged, "persona-changed"},
    {CacheEventReason::kToolSurfaceChanged, "tool-surface-changed"},
};

}  // namespace

const char* CacheEventReasonName(CacheEventReason reason) {
  return NameOf(kCacheEventReasonNames, reason).data();  // the names are literals
}

}  // namespace strata
