// markdown_blocks.h (internal): the block structure of a markdown text as the band splitter and the
// generated-block splice need it: which lines are code, where document-level headings start.
// Parsed with cmark-gfm so every CommonMark fence form is handled as a client's renderer would.
#pragma once

#include <cmark-gfm.h>

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "text/text.h"

namespace strata {

struct MarkdownHeading {
  int level = 0;     // 1..6
  std::string text;  // inline text, code spans included, emphasis markers dropped
};

struct MarkdownBlocks {
  std::vector<bool> in_code;                // index: 1-based line; size line_count + 2
  std::map<int, MarkdownHeading> headings;  // start line -> heading (document level only)
};

// Parses `text` with cmark-gfm (`cmark_options`, e.g. CMARK_OPT_DEFAULT) and calls `visit` on
// entering every node, depth first, with the document node for context.
void ForEachMarkdownNode(std::string_view text, int cmark_options,
                         const std::function<void(cmark_node* node, cmark_node* document)>& visit);

MarkdownBlocks MapMarkdownBlocks(std::string_view text);

}  // namespace strata
