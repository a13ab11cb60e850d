// markdown_blocks.h (internal): the block structure of a markdown text as the band splitter and the
// generated-block splice need it: which lines are code, where document-level headings start.
// Parsed with cmark-gfm so every CommonMark fence form is handled as a client's renderer would.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace strata {

struct MarkdownHeading {
  int level = 0;     // 1..6
  std::string text;  // inline text, code spans included, emphasis markers dropped
};

struct MarkdownBlocks {
  std::vector<bool> in_code;                 // index: 1-based line; size line_count + 2
  std::map<int, MarkdownHeading> headings;   // start line -> heading (document level only)
};

// The lines of `text` without their '\n'; a final line without newline counts.
std::vector<std::string_view> SplitLines(std::string_view text);

MarkdownBlocks MapMarkdownBlocks(std::string_view text);

}  // namespace strata
