// path_glob.cc: brace expansion, then a segment-by-segment match with `**` spanning segments.
#include "discover/path_glob.h"

#include <fnmatch.h>

namespace strata::discover {

namespace {

std::vector<std::string> Segments(std::string_view path) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    if (end > start) out.emplace_back(path.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

// Every pattern `pattern` stands for once its first (outermost) brace group is expanded,
// recursively.
void ExpandBraces(const std::string& pattern, std::vector<std::string>* out) {
  size_t open = pattern.find('{');
  if (open == std::string::npos || out->size() > 256) {
    out->push_back(pattern);
    return;
  }
  int depth = 0;
  std::vector<size_t> commas;
  size_t close = std::string::npos;
  for (size_t i = open; i < pattern.size() && close == std::string::npos; ++i) {
    if (pattern[i] == '{') ++depth;
    if (pattern[i] == '}' && --depth == 0) close = i;
    if (pattern[i] == ',' && depth == 1) commas.push_back(i);
  }
  if (close == std::string::npos) {  // an unmatched brace is a literal
    out->push_back(pattern);
    return;
  }
  std::string head = pattern.substr(0, open);
  std::string tail = pattern.substr(close + 1);
  size_t from = open + 1;
  commas.push_back(close);
  for (size_t comma : commas) {
    ExpandBraces(head + pattern.substr(from, comma - from) + tail, out);
    from = comma + 1;
  }
}

bool MatchSegments(const std::vector<std::string>& pattern, size_t p,
                   const std::vector<std::string>& path, size_t s) {
  while (p < pattern.size()) {
    if (pattern[p] == "**") {
      for (size_t skip = s; skip <= path.size(); ++skip) {
        if (MatchSegments(pattern, p + 1, path, skip)) return true;
      }
      return false;
    }
    if (s >= path.size() || ::fnmatch(pattern[p].c_str(), path[s].c_str(), FNM_PERIOD) != 0) {
      return false;
    }
    ++p;
    ++s;
  }
  return s == path.size();
}

}  // namespace

std::vector<std::string> SplitPatternList(const std::vector<std::string>& values) {
  // Joined first: a frontmatter reader that split `*.{ts,tsx}` at its comma gets it back whole.
  std::string joined;
  for (const std::string& value : values) joined += (joined.empty() ? "" : ",") + value;
  std::vector<std::string> out;
  auto push = [&](const std::string& part) {
    size_t begin = part.find_first_not_of(" \t");
    size_t end = part.find_last_not_of(" \t");
    if (begin != std::string::npos) out.push_back(part.substr(begin, end - begin + 1));
  };
  int depth = 0;
  std::string part;
  for (char c : joined) {
    if (c == '{') ++depth;
    if (c == '}' && depth > 0) --depth;
    if (c == ',' && depth == 0) {
      push(part);
      part.clear();
    } else {
      part.push_back(c);
    }
  }
  push(part);
  return out;
}

bool MatchPathGlob(std::string_view pattern, std::string_view relative_path) {
  std::string p(pattern);
  if (p.starts_with("./")) p.erase(0, 2);
  while (p.starts_with('/')) p.erase(0, 1);
  if (p.ends_with('/')) p += "**";
  if (p.empty()) return false;
  std::vector<std::string> expanded;
  ExpandBraces(p, &expanded);
  const std::vector<std::string> path = Segments(relative_path);
  for (const std::string& one : expanded) {
    if (MatchSegments(Segments(one), 0, path, 0)) return true;
  }
  return false;
}

}  // namespace strata::discover
