// frontmatter.cc: finding the leading `---` YAML block and reading simple keys from it (a scalar,
// a comma list or a block list: the shapes clients document for globs, applyTo and paths).
#include "markdown/frontmatter.h"

#include "text/text.h"

namespace strata {

namespace {

std::string_view Trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return {};
  size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

std::string Unquote(std::string_view s) {
  s = Trim(s);
  if (s.size() >= 2 && (s.front() == '"' || s.front() == '\'') && s.back() == s.front()) {
    s = s.substr(1, s.size() - 2);
  }
  return std::string(s);
}

void AppendItems(std::string_view value, std::vector<std::string>* out) {
  value = Trim(value);
  if (value.starts_with('[') && value.ends_with(']')) value = value.substr(1, value.size() - 2);
  while (!value.empty()) {
    // A comma inside braces is part of a glob (`*.{ts,tsx}`), not a separator.
    size_t comma = std::string_view::npos;
    int depth = 0;
    for (size_t i = 0; i < value.size() && comma == std::string_view::npos; ++i) {
      depth += value[i] == '{' ? 1 : value[i] == '}' && depth > 0 ? -1 : 0;
      if (value[i] == ',' && depth == 0) comma = i;
    }
    std::string item = Unquote(value.substr(0, comma));
    if (!item.empty()) out->push_back(std::move(item));
    if (comma == std::string_view::npos) break;
    value.remove_prefix(comma + 1);
  }
}

}  // namespace

size_t FrontmatterLength(std::string_view text) {
  size_t first_end = text.find('\n');
  if (first_end == std::string_view::npos || Trim(text.substr(0, first_end)) != "---" ||
      !text.starts_with("---")) {
    return 0;
  }
  size_t pos = first_end + 1;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    size_t next = end == std::string_view::npos ? text.size() : end + 1;
    std::string_view line = Trim(text.substr(pos, next - pos));
    if (line == "---" || line == "...") return next;
    pos = next;
  }
  return 0;
}

std::vector<std::string> FrontmatterValues(std::string_view frontmatter, std::string_view key) {
  std::vector<std::string> out;
  std::vector<std::string_view> lines = SplitLines(frontmatter);
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string_view line = lines[i];
    if (!line.starts_with(key) || line.size() <= key.size() || line[key.size()] != ':') continue;
    std::string_view value = Trim(line.substr(key.size() + 1));
    if (!value.empty()) {
      AppendItems(value, &out);
      return out;
    }
    for (size_t j = i + 1; j < lines.size(); ++j) {
      std::string_view item = Trim(lines[j]);
      if (!item.starts_with("- ")) break;
      std::string v = Unquote(item.substr(2));
      if (!v.empty()) out.push_back(std::move(v));
    }
    return out;
  }
  return out;
}

}  // namespace strata
