// unclosed_fence.cc: the fenced code block a text ends inside, wherever CommonMark opened it (at
// the top level, in a list item, in a block quote), from cmark-gfm's parse.
#include "markdown/unclosed_fence.h"

#include <cmark-gfm.h>

#include <cstring>

#include "markdown/markdown_blocks.h"
#include "text/text.h"

namespace strata {

namespace {

// The container prefix a closing fence needs to stay in the fence's block: the opening line's
// bytes before the fence, with block quote markers kept and everything else (list markers,
// indentation) turned into blanks, e.g. "> - ```" -> "> " + "  ".
std::string ContainerPrefix(std::string_view opening_line, int fence_column) {
  std::string prefix(opening_line.substr(
      0, std::min(opening_line.size(), static_cast<size_t>(std::max(fence_column - 1, 0)))));
  for (char& c : prefix) {
    if (c != '>' && c != '\t') c = ' ';
  }
  return prefix;
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
  const int line_count = static_cast<int>(lines.size());
  std::optional<UnclosedFence> found;
  document.ForEachNode([&](cmark_node* node, cmark_node* /*doc*/) {
    int length = 0, offset = 0;
    char fence = 0;
    if (cmark_node_get_type(node) != CMARK_NODE_CODE_BLOCK ||
        cmark_node_get_fenced(node, &length, &offset, &fence) == 0) {
      return;
    }
    // cmark does not record whether a fence was closed. A closed fence spans its opening line,
    // its content lines and the closing line; one left open ends at its last content line (or
    // at the end of the text, past trailing blank lines), with no closing line after it.
    const char* literal = cmark_node_get_literal(node);
    int content_lines = 0;
    for (const char* p = literal; p != nullptr && *p != '\0'; ++p) content_lines += *p == '\n';
    const int first = cmark_node_get_start_line(node);
    const int last = cmark_node_get_end_line(node);
    if (last - first - 1 == content_lines) return;   // a closing fence line follows the content
    if (first + content_lines < line_count) return;  // closed by its container, text follows
    if (first < 1 || first > line_count) return;
    std::string closing =
        ContainerPrefix(lines[static_cast<size_t>(first) - 1], cmark_node_get_start_column(node));
    closing.append(static_cast<size_t>(length), fence).push_back('\n');
    found = UnclosedFence{first, std::move(closing)};  // the innermost open fence comes last
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
