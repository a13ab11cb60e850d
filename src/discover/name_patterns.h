// name_patterns.h: instruction file names that are patterns, such as Claude Code's
// `.claude/rules/*.md` or Copilot's `.github/instructions/**/*.instructions.md`.
//
// A name whose last segment holds `*` or `?` is a pattern: the part before it is a directory
// below the directory being searched, `**/` in front of the last segment searches that directory
// and every directory below it (symlinked directories not entered), and the last segment is
// matched with fnmatch(3). Matches come in byte order of their relative paths, so the order never
// depends on the file system. Other names are returned as they are.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace strata::discover {

bool IsNamePattern(const std::string& name);

// `names` with every pattern replaced by the relative paths (below `dir`) of the files it matches.
std::vector<std::string> ExpandNamePatterns(const std::filesystem::path& dir,
                                            const std::vector<std::string>& names);

}  // namespace strata::discover
