// unclosed_fence.h (internal): a fenced code block left open at the end of a file.
//
// CommonMark runs an unclosed fence to the end of the document. Joined with other text (the next
// file in `discover --content`, the digest footer of a compiled target, an import inlined into the
// middle of a file), such a file would swallow everything after it into its code block. Discovery
// and compile close it and warn.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "markdown/markdown_blocks.h"

namespace strata {

struct UnclosedFence {
  int line = 0;         // 1-based line of the opening fence
  std::string closing;  // the line that closes it inside its containers: as many fence
                        // characters, after the container's prefix: "```\n", "  ```\n" in a
                        // list item, "> ```\n" in a block quote
};

// The fenced code block that `text` (LF line endings) ends inside, or nullopt: at the top level
// or inside list items and block quotes (a `- step:` item whose indented fence is never closed),
// wherever CommonMark opens one. A fence its container closed before the end (a line at column 0
// after a list item) is not reported: text after it is not code.
std::optional<UnclosedFence> FindUnclosedFence(std::string_view text);
std::optional<UnclosedFence> FindUnclosedFence(const MarkdownDocument& document);

// Appends the closing fence to `text` (a newline first when `text` does not end in one) when it
// ends inside a fence; returns what was found.
std::optional<UnclosedFence> CloseUnclosedFence(std::string* text);
// The same, with `document` the parse of *text (checked first; stale once a fence is appended).
std::optional<UnclosedFence> CloseUnclosedFence(std::string* text,
                                                const MarkdownDocument& document);

}  // namespace strata
