// unclosed_fence.cc: the last top-level code block from cmark-gfm's parse, checked for a closing
// fence line (cmark does not record whether a fence was closed).
#include "markdown/unclosed_fence.h"

#include <cmark-gfm.h>

#include "markdown/markdown_blocks.h"
#include "text/text.h"

namespace strata {

namespace {

// True when `line` closes a fence of `length` characters `fence`: up to 3 spaces, at least
// `length` fence characters, then only blanks.
bool ClosesFence(std::string_view line, int length, char fence) {
  size_t i = 0;
  while (i < line.size() && i < 3 && line[i] == ' ') ++i;
  size_t run = 0;
  while (i + run < line.size() && line[i + run] == fence) ++run;
  if (run < static_cast<size_t>(length)) return false;
  return line.substr(i + run).find_first_not_of(" \t\r") == std::string_view::npos;
}

}  // namespace

std::optional<UnclosedFence> FindUnclosedFence(std::string_view text) {
  return FindUnclosedFence(MarkdownDocument(text));
}

std::optional<UnclosedFence> FindUnclosedFence(const MarkdownDocument& document) {
  const std::string_view text = document.text();
  if (text.find("```") == std::string_view::npos && text.find("~~~") == std::string_view::npos) {
    return std::nullopt;
  }
  std::vector<std::string_view> lines = SplitLines(text);
  std::optional<UnclosedFence> found;
  document.ForEachNode([&](cmark_node* node, cmark_node* doc) {
    if (cmark_node_parent(node) != doc) return;
    found.reset();  // only the last top-level block can be open at the end
    int length = 0, offset = 0;
    char fence = 0;
    if (cmark_node_get_type(node) != CMARK_NODE_CODE_BLOCK ||
        cmark_node_get_fenced(node, &length, &offset, &fence) == 0) {
      return;
    }
    int first = cmark_node_get_start_line(node);
    int last = cmark_node_get_end_line(node);
    if (last < first || last > static_cast<int>(lines.size()))
      last = static_cast<int>(lines.size());
    if (last > first && ClosesFence(lines[static_cast<size_t>(last) - 1], length, fence)) return;
    found = UnclosedFence{first, std::string(static_cast<size_t>(length), fence) + "\n"};
  });
  return found;
}

std::optional<UnclosedFence> CloseUnclosedFence(std::string* text) {
  return CloseUnclosedFence(text, MarkdownDocument(*text));
}

std::optional<UnclosedFence> CloseUnclosedFence(std::string* text,
                                                const MarkdownDocument& document) {
  std::optional<UnclosedFence> open = FindUnclosedFence(document);
  if (!open) return std::nullopt;
  if (!text->empty() && text->back() != '\n') text->push_back('\n');
  text->append(open->closing);
  return open;
}

}  // namespace strata
