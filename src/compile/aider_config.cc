// aider_config.cc: the textual `read:` merge into .aider.conf.yml (see aider_config.h). Only the
// lines of the top-level `read:` key are looked at; every other byte is copied as it was.
#include "compile/aider_config.h"

#include <vector>

namespace strata {

namespace {

struct Line {
  std::string_view text;  // without its line ending
  std::string_view eol;   // "\n", "\r\n" or "" for a last line without one
};

std::vector<Line> SplitKeepingEnds(std::string_view s) {
  std::vector<Line> lines;
  while (!s.empty()) {
    size_t nl = s.find('\n');
    std::string_view line = s.substr(0, nl);
    std::string_view eol = nl == std::string_view::npos ? "" : "\n";
    if (!eol.empty() && line.ends_with('\r')) {
      line.remove_suffix(1);
      eol = "\r\n";
    }
    lines.push_back({line, eol});
    s.remove_prefix(nl == std::string_view::npos ? s.size() : nl + 1);
  }
  return lines;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::string_view Unquote(std::string_view s) {
  s = Trim(s);
  if (s.size() >= 2 && (s.front() == '"' || s.front() == '\'') && s.back() == s.front()) {
    s = s.substr(1, s.size() - 2);
  }
  return s;
}

// The value part of `read: value  # comment`: [begin, end) offsets of the value in the line.
std::pair<size_t, size_t> ValueSpan(std::string_view line) {
  size_t begin = line.find(':') + 1;
  size_t end = line.size();
  if (size_t hash = line.find(" #", begin); hash != std::string_view::npos) end = hash;
  while (begin < end && (line[begin] == ' ' || line[begin] == '\t')) ++begin;
  while (end > begin && (line[end - 1] == ' ' || line[end - 1] == '\t')) --end;
  return {begin, end};
}

bool IsReadKey(std::string_view line) {
  if (!line.starts_with("read")) return false;
  std::string_view rest = Trim(line.substr(4));
  return rest.starts_with(':') && (rest.size() == 1 || rest[1] == ' ' || rest[1] == '\t');
}

bool FlowListHas(std::string_view list, std::string_view file) {
  list = list.substr(1, list.rfind(']') - 1);
  while (!list.empty()) {
    size_t comma = list.find(',');
    if (Unquote(list.substr(0, comma)) == file) return true;
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return false;
}

std::string Join(const std::vector<Line>& lines) {
  std::string out;
  for (const auto& l : lines) out.append(l.text).append(l.eol);
  return out;
}

// A block list under `read:` at line `at`: adds `- file` after the last item unless listed.
std::string MergeBlockList(std::vector<Line> lines, size_t at, std::string_view file,
                           std::string_view eol) {
  size_t last = at;
  std::string indent = "  ";
  for (size_t i = at + 1; i < lines.size(); ++i) {
    std::string_view t = lines[i].text;
    std::string_view trimmed = Trim(t);
    if (trimmed.empty() || trimmed.front() == '#') continue;
    if (t.front() != ' ' && t.front() != '\t' && !t.starts_with("- ")) break;
    if (!trimmed.starts_with("- ") && trimmed != "-") break;
    if (Unquote(trimmed.substr(1)) == file) return Join(lines);
    indent = std::string(t.substr(0, t.find('-')));
    last = i;
  }
  std::string added = indent + "- " + std::string(file);
  if (lines[last].eol.empty()) lines[last].eol = eol;
  std::string out;
  for (size_t i = 0; i < lines.size(); ++i) {
    out.append(lines[i].text).append(lines[i].eol);
    if (i == last) out.append(added).append(eol);
  }
  return out;
}

}  // namespace

std::string MergeAiderRead(std::string_view existing, std::string_view file) {
  const std::string_view eol = existing.find("\r\n") != std::string_view::npos ? "\r\n" : "\n";
  std::vector<Line> lines = SplitKeepingEnds(existing);
  for (size_t i = 0; i < lines.size(); ++i) {
    if (!IsReadKey(lines[i].text)) continue;
    std::string_view line = lines[i].text;
    auto [begin, end] = ValueSpan(line);
    std::string_view value = line.substr(begin, end - begin);
    if (value.empty()) return MergeBlockList(std::move(lines), i, file, eol);
    std::string replaced(line.substr(0, begin));
    if (value.front() == '[' && value.back() == ']') {
      if (FlowListHas(value, file)) return std::string(existing);
      std::string_view inner = Trim(value.substr(1, value.size() - 2));
      replaced.append(value.substr(0, value.size() - 1))
          .append(inner.empty() ? "" : ", ")
          .append(file)
          .append("]");
    } else {
      if (Unquote(value) == file) return std::string(existing);
      replaced.append("[").append(value).append(", ").append(file).append("]");
    }
    replaced.append(line.substr(end));
    std::string out;
    for (size_t j = 0; j < lines.size(); ++j) {
      out.append(j == i ? std::string_view(replaced) : lines[j].text).append(lines[j].eol);
    }
    return out;
  }
  std::string out(existing);
  if (!out.empty() && out.back() != '\n') out.append(eol);
  return out.append("read: ").append(file).append(eol);
}

}  // namespace strata
