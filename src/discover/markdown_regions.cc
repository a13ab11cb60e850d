// markdown_regions.cc: turns cmark-gfm's code, code-span and HTML nodes into byte ranges.
//
// Block nodes carry reliable start lines; their end comes from the node's end line or, for HTML
// blocks (whose reported end line can be short), from the number of lines of the block's literal.
// Inline nodes carry a start column that can drift on continuation lines whose indentation cmark
// stripped, so the delimiters (the backtick run cmark matched, `<!--` ... `-->`) are located from
// that start forward on the same line.
#include "discover/markdown_regions.h"

#include "markdown/markdown_blocks.h"

#include <cmark-gfm.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>

namespace strata::discover {

namespace {

// Line starts with cmark's line-ending rule: `\n`, `\r\n` or a lone `\r` ends a line.
std::vector<size_t> LineStarts(std::string_view text) {
  std::vector<size_t> starts{0};
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') {
      starts.push_back(i + 1);
    } else if (text[i] == '\r') {
      if (i + 1 < text.size() && text[i + 1] == '\n') ++i;
      starts.push_back(i + 1);
    }
  }
  return starts;
}

class SourceMap {
 public:
  explicit SourceMap(std::string_view text) : text_(text), starts_(LineStarts(text)) {}

  // Offset of the first byte of 1-based `line` (text size past the end).
  size_t LineBegin(int line) const {
    if (line < 1) return 0;
    if (static_cast<size_t>(line) > starts_.size()) return text_.size();
    return starts_[static_cast<size_t>(line) - 1];
  }
  // Offset just past the line break of `line` (the next line's start).
  size_t LineEndWithBreak(int line) const { return LineBegin(line + 1); }
  // Offset of the line break of `line` (or text end).
  size_t LineEnd(int line) const {
    size_t end = LineEndWithBreak(line);
    size_t begin = LineBegin(line);
    while (end > begin && (text_[end - 1] == '\n' || text_[end - 1] == '\r')) --end;
    return end;
  }
  size_t OffsetOf(int line, int column) const {
    size_t begin = LineBegin(line);
    size_t end = LineEnd(line);
    size_t offset = begin + static_cast<size_t>(std::max(column, 1) - 1);
    return std::min(offset, end);
  }
  int LineCount() const { return static_cast<int>(starts_.size()); }
  std::string_view text() const { return text_; }

 private:
  std::string_view text_;
  std::vector<size_t> starts_;
};

int CountLines(const char* literal) {
  if (literal == nullptr || *literal == '\0') return 1;
  int lines = 0;
  for (const char* p = literal; *p != '\0'; ++p) {
    if (*p == '\n') ++lines;
  }
  size_t n = std::strlen(literal);
  if (literal[n - 1] != '\n') ++lines;
  return std::max(lines, 1);
}

// Comments starting inside a raw HTML block [begin, end): plain HTML, so a textual search is exact
// there. Text after a comment's `-->` on the same line stays scannable.
void AddCommentsIn(std::string_view text, size_t begin, size_t end,
                   std::vector<ExcludedRange>* out) {
  size_t pos = begin;
  while (pos < end) {
    size_t open = text.find("<!--", pos);
    if (open == std::string_view::npos || open >= end) return;
    size_t close = text.find("-->", open + 4);
    size_t stop = close == std::string_view::npos ? text.size() : close + 3;
    out->push_back({open, stop, ImportRefusal::kInHtmlComment});
    pos = stop;
  }
}

void AddCodeBlock(const SourceMap& map, cmark_node* node, std::vector<ExcludedRange>* out) {
  int first = cmark_node_get_start_line(node);
  int last = cmark_node_get_end_line(node);
  if (last < first) last = first + CountLines(cmark_node_get_literal(node));
  out->push_back({map.LineBegin(first), map.LineEndWithBreak(last), ImportRefusal::kInCodeBlock});
}

void AddHtmlBlock(const SourceMap& map, cmark_node* node, std::vector<ExcludedRange>* out) {
  int first = cmark_node_get_start_line(node);
  const char* literal = cmark_node_get_literal(node);
  int last = std::max(cmark_node_get_end_line(node), first + CountLines(literal) - 1);
  size_t begin = map.LineBegin(first);
  size_t end = map.LineEndWithBreak(last);
  AddCommentsIn(map.text(), begin, end, out);
}

void AddCodeSpan(const SourceMap& map, cmark_node* node, std::vector<ExcludedRange>* out) {
  std::string_view text = map.text();
  int line = cmark_node_get_start_line(node);
  size_t candidate = map.OffsetOf(line, cmark_node_get_start_column(node));
  size_t line_begin = map.LineBegin(line);
  size_t line_end = map.LineEnd(line);
  size_t from = candidate >= line_begin + 2 ? candidate - 2 : line_begin;
  size_t open = text.find('`', from);
  if (open == std::string_view::npos || open >= line_end) {
    out->push_back({candidate, line_end, ImportRefusal::kInCodeSpan});
    return;
  }
  while (open > line_begin && text[open - 1] == '`') --open;
  size_t open_end = open;
  while (open_end < text.size() && text[open_end] == '`') ++open_end;
  size_t width = open_end - open;
  size_t pos = open_end;
  while (pos < text.size()) {
    size_t run = text.find('`', pos);
    if (run == std::string_view::npos) break;
    size_t run_end = run;
    while (run_end < text.size() && text[run_end] == '`') ++run_end;
    if (run_end - run == width) {
      out->push_back({open, run_end, ImportRefusal::kInCodeSpan});
      return;
    }
    pos = run_end;
  }
  out->push_back({open, line_end, ImportRefusal::kInCodeSpan});
}

void AddInlineHtml(const SourceMap& map, cmark_node* node, std::vector<ExcludedRange>* out) {
  std::string_view text = map.text();
  int line = cmark_node_get_start_line(node);
  size_t candidate = map.OffsetOf(line, cmark_node_get_start_column(node));
  size_t line_end = map.LineEnd(line);
  size_t open = text.find('<', candidate);
  if (open == std::string_view::npos || open >= line_end) return;
  const char* literal = cmark_node_get_literal(node);
  if (literal != nullptr && std::strncmp(literal, "<!--", 4) == 0) {
    size_t close = text.find("-->", open + 4);
    out->push_back({open, close == std::string_view::npos ? text.size() : close + 3,
                    ImportRefusal::kInHtmlComment});
    return;
  }
  size_t close = text.find('>', open);
  out->push_back({open, close == std::string_view::npos ? line_end : close + 1,
                  ImportRefusal::kInHtmlComment});
}

}  // namespace

std::vector<ExcludedRange> FindExcludedRanges(std::string_view text) {
  return FindExcludedRanges(MarkdownDocument(text));
}

std::vector<ExcludedRange> FindExcludedRanges(const MarkdownDocument& document) {
  const std::string_view text = document.text();
  std::vector<ExcludedRange> out;
  // Code and HTML need a backtick, a tilde, `<`, a tab or a four-space indent.
  if (text.find_first_of("`<~\t") == std::string_view::npos &&
      text.find("    ") == std::string_view::npos) {
    return out;
  }
  SourceMap map(text);
  document.ForEachNode([&](cmark_node* node, cmark_node*) {
    switch (cmark_node_get_type(node)) {
      case CMARK_NODE_CODE_BLOCK:
        AddCodeBlock(map, node, &out);
        break;
      case CMARK_NODE_HTML_BLOCK:
        AddHtmlBlock(map, node, &out);
        break;
      case CMARK_NODE_CODE:
        AddCodeSpan(map, node, &out);
        break;
      case CMARK_NODE_HTML_INLINE:
        AddInlineHtml(map, node, &out);
        break;
      default:
        break;
    }
  });
  for (auto& range : out) {
    range.end = std::min(range.end, text.size());
    range.begin = std::min(range.begin, range.end);
  }
  std::sort(out.begin(), out.end(), [](const ExcludedRange& a, const ExcludedRange& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
  });
  return out;
}

}  // namespace strata::discover
