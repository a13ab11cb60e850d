// markdown_regions.h: where code and HTML comments are in a markdown text, from cmark-gfm's parse.
//
// The import scanner must not follow `@path` inside code spans, fenced or indented code blocks, or
// HTML comments. cmark-gfm decides what those are (CommonMark rules, including
// unclosed fences, tildes, containers); this file turns its nodes into byte ranges of the source.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "discover/import_scanner.h"

#include "markdown/markdown_blocks.h"

namespace strata::discover {

struct ExcludedRange {
  size_t begin = 0;  // byte offset, inclusive
  size_t end = 0;    // byte offset, exclusive
  ImportRefusal why = ImportRefusal::kInCodeBlock;
};

// Ranges sorted by begin; they may overlap.
std::vector<ExcludedRange> FindExcludedRanges(std::string_view text);
std::vector<ExcludedRange> FindExcludedRanges(const MarkdownDocument& document);

}  // namespace strata::discover
