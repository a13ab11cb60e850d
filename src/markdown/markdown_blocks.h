// markdown_blocks.h (internal): the block structure of a markdown text as the band splitter and the
// generated-block splice need it: which lines are code, where document-level headings start.
// Parsed with cmark-gfm so every CommonMark fence form is handled as a client's renderer would.
#pragma once

#include <cmark-gfm.h>

#include <functional>
#include <map>
#include <memory>
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

// One cmark-gfm parse of a text, made on first use and shared by every pass over the same bytes
// (the import scan, the fence check, the block map): a source is parsed once, not once a pass.
// Invariant: the text outlives the document and does not change while it is used.
class MarkdownDocument {
 public:
  explicit MarkdownDocument(std::string_view text) : text_(text) {}
  std::string_view text() const { return text_; }
  // Calls `visit` on entering every node, depth first, with the document node for context.
  // Source positions are kept (CMARK_OPT_SOURCEPOS; it changes no parse, only rendering).
  void ForEachNode(const std::function<void(cmark_node* node, cmark_node* document)>& visit) const;

 private:
  std::string_view text_;
  mutable std::unique_ptr<cmark_node, void (*)(cmark_node*)> root_{nullptr, &cmark_node_free};
};

MarkdownBlocks MapMarkdownBlocks(const MarkdownDocument& document);
MarkdownBlocks MapMarkdownBlocks(std::string_view text);

}  // namespace strata
