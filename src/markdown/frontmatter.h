// frontmatter.h (internal): YAML frontmatter at the start of an instruction file.
//
// Cursor `.mdc` rules, Copilot `*.instructions.md`, Windsurf, Kiro and Claude Code rule files open
// with a YAML block between two `---` lines that configures the client (globs, applyTo, paths,
// alwaysApply). It is metadata, not instruction text: compile drops it from what reaches a
// target's body (each target writes its own), adopt puts the head marker after it, and discovery
// profiles read keys such as `paths:` from it.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace strata {

// Bytes of the frontmatter block at the start of `text` (LF line endings, no BOM): a first line
// that is exactly `---`, then lines up to and including a closing line `---` or `...` (trailing
// blanks allowed on both). 0 when `text` has none or it is never closed.
size_t FrontmatterLength(std::string_view text);

// The values of key `key` in a frontmatter block (the whole block as FrontmatterLength measured
// it): `key: a, b` or `key: "a"` gives each comma-separated item, unquoted (a comma inside
// braces belongs to its glob: `*.{ts,tsx}` is one item); a YAML list
// (`key:` then `  - a` lines) gives each item. Empty when the key is absent or has no value.
std::vector<std::string> FrontmatterValues(std::string_view frontmatter, std::string_view key);

}  // namespace strata
