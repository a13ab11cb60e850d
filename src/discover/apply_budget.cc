// apply_budget.cc: per-file and total budgets (bytes, and tokens with a counter), in source order.
#include "discover/apply_budget.h"

#include <algorithm>

namespace strata::discover {

void ApplyBudgets(const Budget& budget, bool spend_total, std::vector<Source>* sources,
                  std::vector<Diagnostic>* diagnostics) {
  const bool tokens = static_cast<bool>(budget.count_tokens);
  size_t bytes_left = budget.total_bytes;
  size_t tokens_left = budget.total_tokens;
  for (Source& source : *sources) {
    const std::string& text = source.content;
    size_t keep = text.size();
    std::string why;
    auto limit = [&](size_t cap, const std::string& name) {
      if (cap < keep) {
        keep = cap;
        why = name;
      }
    };
    if (budget.per_file_bytes > 0) {
      limit(budget.per_file_bytes,
            "per-file budget of " + std::to_string(budget.per_file_bytes) + " bytes");
    }
    if (tokens && budget.per_file_tokens > 0) {
      limit(BytesWithinTokens(text, keep, budget.per_file_tokens, budget.count_tokens),
            "per-file budget of " + std::to_string(budget.per_file_tokens) + " tokens");
    }
    if (spend_total && budget.total_bytes > 0) {
      limit(bytes_left, "total budget of " + std::to_string(budget.total_bytes) + " bytes");
    }
    if (spend_total && tokens && budget.total_tokens > 0) {
      limit(BytesWithinTokens(text, keep, tokens_left, budget.count_tokens),
            "total budget of " + std::to_string(budget.total_tokens) + " tokens");
    }
    Truncation cut = budget.keep_tail ? TruncateHeadTail(text, keep, source.display_path)
                                      : TruncateHead(text, keep);
    size_t kept = cut.head_bytes + cut.tail_bytes;
    if (spend_total && budget.total_bytes > 0) bytes_left -= std::min(bytes_left, kept);
    if (spend_total && tokens && budget.total_tokens > 0) {
      size_t used = cut.truncated
                        ? budget.count_tokens(text.substr(0, cut.head_bytes)) +
                              budget.count_tokens(text.substr(text.size() - cut.tail_bytes))
                        : budget.count_tokens(text);
      tokens_left -= std::min(tokens_left, used);
    }
    if (!cut.truncated) continue;
    diagnostics->push_back(
        {Severity::kWarning,
         "truncated",
         source.display_path + " cut to the " + why + ": " + std::to_string(cut.cut_bytes) +
             " of " + std::to_string(text.size()) + " bytes cut (kept head " +
             std::to_string(cut.head_bytes) + " and tail " + std::to_string(cut.tail_bytes) +
             " bytes)" +
             (budget.keep_tail ? "" : ", cut at byte " + std::to_string(cut.head_bytes)),
         {source.display_path}});
    source.truncated = true;
    source.bytes_cut = cut.cut_bytes;
    source.content = std::move(cut.text);
  }
}

}  // namespace strata::discover
