// aider_config.h: the `read:` entry that makes Aider load the compiled CONVENTIONS.md.
//
// Aider reads files listed under `read:` in .aider.conf.yml as read-only context (a scalar, a
// flow list `[a, b]` or a block list of `- a` items). strata adds its file there by a textual
// merge, so every other key, comment, blank line and line ending of the user's file stays as it
// was; a YAML round trip would drop the comments.
#pragma once

#include <string>
#include <string_view>

namespace strata {

inline constexpr std::string_view kAiderConfigPath = ".aider.conf.yml";

// `existing` with `file` listed under the top-level `read:` key; `existing` unchanged when the
// file is already listed. An empty `existing` (no config yet) gives "read: FILE\n". A scalar
// value becomes a flow list `[old, FILE]`, a flow list gets `, FILE` before its `]`, a block list
// gets one more item at its items' indent; without a `read:` key one is appended at the end.
// CRLF files get CRLF in the added lines.
std::string MergeAiderRead(std::string_view existing, std::string_view file);

}  // namespace strata
