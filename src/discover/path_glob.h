// path_glob.h: the glob patterns of rule frontmatter (Claude Code `paths:`, Copilot `applyTo:`,
// Cursor `globs:`) matched against a path relative to the rule's base directory.
//
// `*` and `?` match within one path segment (fnmatch(3) per segment), `**` as a whole segment
// matches any number of segments (none included), `{a,b}` alternates (nested braces allowed), a
// leading `./` or `/` is ignored and a trailing `/` means everything below. A frontmatter value
// may hold several patterns separated by commas outside braces (`**/*.ts,**/*.tsx`).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace strata::discover {

// `values` joined with commas and split again at commas outside braces, each part trimmed;
// empty parts dropped.
std::vector<std::string> SplitPatternList(const std::vector<std::string>& values);

// True when `relative_path` (segments separated by `/`, no `..`) matches `pattern`.
bool MatchPathGlob(std::string_view pattern, std::string_view relative_path);

}  // namespace strata::discover
