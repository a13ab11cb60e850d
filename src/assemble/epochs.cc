// epochs.cc: snapshot diffs, the line diff and the context-update notice text. The notice is the
// only way a source change reaches the model mid-session, so the prefix above it never moves.
#include "strata/epochs.h"
#include "text/text.h"

#include <algorithm>

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

struct Op {
  char tag;  // ' ', '-', '+'
  std::string_view line;
  size_t a_line, b_line;  // 0-based line numbers in before/after at this op
};

std::vector<Op> DiffOps(const std::vector<std::string_view>& a,
                        const std::vector<std::string_view>& b) {
  std::vector<Op> ops;
  constexpr size_t kLimit = 4000;
  // Common head and tail first: edits are usually local, and this keeps the table small.
  size_t head = 0;
  while (head < a.size() && head < b.size() && a[head] == b[head]) ++head;
  size_t tail = 0;
  while (tail < a.size() - head && tail < b.size() - head &&
         a[a.size() - 1 - tail] == b[b.size() - 1 - tail]) {
    ++tail;
  }
  for (size_t i = 0; i < head; ++i) ops.push_back({' ', a[i], i, i});
  size_t n = a.size() - head - tail, m = b.size() - head - tail;
  if (n > kLimit || m > kLimit) {
    for (size_t i = 0; i < n; ++i) ops.push_back({'-', a[head + i], head + i, head});
    for (size_t j = 0; j < m; ++j) ops.push_back({'+', b[head + j], head + n, head + j});
  } else {
    // LCS table over the middle part.
    std::vector<uint32_t> table((n + 1) * (m + 1), 0);
    auto at = [&](size_t i, size_t j) -> uint32_t& { return table[i * (m + 1) + j]; };
    for (size_t i = n; i-- > 0;) {
      for (size_t j = m; j-- > 0;) {
        at(i, j) = a[head + i] == b[head + j] ? at(i + 1, j + 1) + 1
                                              : std::max(at(i + 1, j), at(i, j + 1));
      }
    }
    size_t i = 0, j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && a[head + i] == b[head + j]) {
        ops.push_back({' ', a[head + i], head + i, head + j});
        ++i;
        ++j;
      } else if (i < n && (j == m || at(i + 1, j) >= at(i, j + 1))) {
        ops.push_back({'-', a[head + i], head + i, head + j});  // deletions before insertions
        ++i;
      } else {
        ops.push_back({'+', b[head + j], head + i, head + j});
        ++j;
      }
    }
  }
  for (size_t k = 0; k < tail; ++k) {
    size_t ai = a.size() - tail + k, bi = b.size() - tail + k;
    ops.push_back({' ', a[ai], ai, bi});
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

const char* CacheEventReasonName(CacheEventReason reason) {
  switch (reason) {
    case CacheEventReason::kCompaction:
      return "compaction";
    case CacheEventReason::kModelFamilySwitch:
      return "model-family-switch";
    case CacheEventReason::kPersonaChanged:
      return "persona-changed";
    case CacheEventReason::kToolSurfaceChanged:
      return "tool-surface-changed";
  }
  return "?";
}

}  // namespace strata
