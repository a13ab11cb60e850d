// markdown_blocks.cc: code-line and heading map from cmark-gfm's parse tree.
#include "markdown/markdown_blocks.h"

#include <cmark-gfm.h>

#include <algorithm>
#include <memory>

namespace strata {

namespace {

void AppendText(cmark_node* node, std::string* out) {
  for (cmark_node* child = cmark_node_first_child(node); child != nullptr;
       child = cmark_node_next(child)) {
    cmark_node_type type = cmark_node_get_type(child);
    if (type == CMARK_NODE_TEXT || type == CMARK_NODE_CODE) {
      if (const char* literal = cmark_node_get_literal(child)) out->append(literal);
    } else if (type == CMARK_NODE_SOFTBREAK || type == CMARK_NODE_LINEBREAK) {
      out->push_back(' ');
    } else {
      AppendText(child, out);
    }
  }
}

}  // namespace

void MarkdownDocument::ForEachNode(
    const std::function<void(cmark_node*, cmark_node*)>& visit) const {
  if (!root_) root_.reset(cmark_parse_document(text_.data(), text_.size(), CMARK_OPT_SOURCEPOS));
  cmark_node* doc = root_.get();
  if (doc == nullptr) return;
  std::unique_ptr<cmark_iter, decltype(&cmark_iter_free)> iter(cmark_iter_new(doc),
                                                               &cmark_iter_free);
  cmark_event_type event;
  while ((event = cmark_iter_next(iter.get())) != CMARK_EVENT_DONE) {
    if (event == CMARK_EVENT_ENTER) visit(cmark_iter_get_node(iter.get()), doc);
  }
}

MarkdownBlocks MapMarkdownBlocks(std::string_view text) {
  return MapMarkdownBlocks(MarkdownDocument(text));
}

MarkdownBlocks MapMarkdownBlocks(const MarkdownDocument& document) {
  const std::string_view text = document.text();
  const int line_count = static_cast<int>(SplitLines(text).size());
  MarkdownBlocks map;
  map.in_code.assign(static_cast<size_t>(line_count) + 2, false);
  document.ForEachNode([&](cmark_node* node, cmark_node* doc) {
    cmark_node_type type = cmark_node_get_type(node);
    if (type == CMARK_NODE_CODE_BLOCK) {
      int first = std::max(cmark_node_get_start_line(node), 1);
      int last = cmark_node_get_end_line(node);
      if (last < first) last = line_count;  // an unclosed fence runs to the end
      for (int line = first; line <= std::min(last, line_count); ++line) {
        map.in_code[static_cast<size_t>(line)] = true;
      }
    } else if (type == CMARK_NODE_HEADING && cmark_node_parent(node) == doc) {
      MarkdownHeading heading;
      heading.level = cmark_node_get_heading_level(node);
      AppendText(node, &heading.text);
      map.headings[cmark_node_get_start_line(node)] = std::move(heading);
    }
  });
  return map;
}

}  // namespace strata
