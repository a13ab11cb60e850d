// splice.cc: keeps strata.toml's generated blocks current inside the instruction source.
#include "strata/splice.h"

#include <map>

#include "markdown/markdown_blocks.h"
#include "strata/bands.h"

namespace strata {

namespace {

// Parses `<!-- strata:begin NAME -->` / `<!-- strata:end NAME -->`; returns the name or "".
std::string MarkerName(std::string_view line, std::string_view verb) {
  size_t indent = line.find_first_not_of(' ');
  if (indent == std::string_view::npos || indent > 3) return "";
  line.remove_prefix(indent);
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
  std::string prefix = "<!-- strata:" + std::string(verb) + " ";
  std::string_view suffix = " -->";
  if (line.size() <= prefix.size() + suffix.size() || line.substr(0, prefix.size()) != prefix ||
      line.substr(line.size() - suffix.size()) != suffix) {
    return "";
  }
  std::string_view name = line.substr(prefix.size(), line.size() - prefix.size() - suffix.size());
  if (name.find(' ') != std::string_view::npos) return "";
  return std::string(name);
}

struct Span {
  int begin = 0;  // 0-based line index of the begin marker
  int end = -1;   // 0-based line index of the end marker
};

}  // namespace

bool IsBlockMarker(std::string_view line) {
  return !MarkerName(line, "begin").empty() || !MarkerName(line, "end").empty();
}

Result<SpliceResult> SpliceBlocks(std::string_view source,
                                  const std::vector<GeneratedBlock>& blocks,
                                  std::string_view path) {
  SpliceResult out;
  auto lines = SplitLines(source);
  MarkdownBlocks map = MapMarkdownBlocks(source);
  std::map<std::string, Span> spans;
  std::string open;  // name of the block being read
  int config_marker = -1;
  for (int i = 0; i < static_cast<int>(lines.size()); ++i) {
    if (map.in_code[static_cast<size_t>(i) + 1]) {
      // Inside an open block, a marker line in a fence would make the block swallow the fence and
      // everything up to the next real end marker: refuse rather than overwrite that text.
      if (!open.empty() && IsBlockMarker(lines[i])) {
        return MakeError(ErrorKind::kParse,
                         "a generated-block marker inside a code block, while block '" + open +
                             "' is open: close the block with `<!-- strata:end " + open +
                             " -->` before the code block",
                         {std::string(path), i + 1, 1});
      }
      continue;
    }
    Band band;
    if (config_marker < 0 && ParseBandMarker(lines[i], &band) && band == Band::kConfig) {
      config_marker = i;
    }
    if (std::string name = MarkerName(lines[i], "begin"); !name.empty()) {
      if (!open.empty()) {
        return MakeError(ErrorKind::kParse,
                         "generated block '" + name + "' begins inside block '" + open +
                             "': add `<!-- strata:end " + open + " -->` before it",
                         {std::string(path), i + 1, 1});
      }
      if (spans.count(name) != 0) {
        return MakeError(ErrorKind::kParse,
                         "generated block '" + name + "' appears twice: keep one of them",
                         {std::string(path), i + 1, 1});
      }
      spans[name] = Span{i, -1};
      open = name;
    } else if (std::string name = MarkerName(lines[i], "end"); !name.empty()) {
      if (name != open) {
        return MakeError(ErrorKind::kParse,
                         "`<!-- strata:end " + name + " -->` has no matching begin marker",
                         {std::string(path), i + 1, 1});
      }
      spans[name].end = i;
      open.clear();
    }
  }
  if (!open.empty()) {
    return MakeError(ErrorKind::kParse,
                     "generated block '" + open + "' is not closed: add `<!-- strata:end " + open +
                         " -->` after its text",
                     {std::string(path), spans[open].begin + 1, 1});
  }

  // Replacement text per line index: begin marker line -> whole new block; lines inside -> dropped.
  std::map<int, std::string> replace;
  std::vector<bool> drop(lines.size(), false);
  std::string inserted_after_config;
  for (const auto& block : blocks) {
    std::string rendered = "<!-- strata:begin " + block.name + " -->\n" + block.text +
                           "<!-- strata:end " + block.name + " -->\n";
    auto it = spans.find(block.name);
    if (it == spans.end()) {
      if (config_marker < 0) {
        out.diagnostics.push_back(
            {Severity::kWarning,
             "block-not-placed",
             "generated block '" + block.name +
                 "' is not in the source and there is no `<!-- strata:config -->` marker to put it "
                 "after: add the marker or the block's begin/end lines",
             {std::string(path)}});
        continue;
      }
      inserted_after_config += "\n" + rendered;
      out.inserted.push_back(block.name);
      continue;
    }
    std::string current;
    for (int i = it->second.begin; i <= it->second.end; ++i) {
      current.append(lines[static_cast<size_t>(i)]);
      current.push_back('\n');
      drop[static_cast<size_t>(i)] = true;
    }
    if (current != rendered) out.updated.push_back(block.name);
    replace[it->second.begin] = rendered;
  }
  for (const auto& [name, span] : spans) {
    bool known = false;
    for (const auto& block : blocks) known = known || block.name == name;
    if (!known) {
      out.diagnostics.push_back(
          {Severity::kWarning,
           "unknown-block",
           "generated block '" + name + "' is not defined in strata.toml; it is left as written",
           {std::string(path), span.begin + 1, 1}});
    }
  }
  if (out.updated.empty() && out.inserted.empty()) {
    out.text = std::string(source);
    return out;
  }
  for (size_t i = 0; i < lines.size(); ++i) {
    if (auto r = replace.find(static_cast<int>(i)); r != replace.end()) out.text += r->second;
    if (drop[i]) continue;
    out.text.append(lines[i]);
    if (i + 1 < lines.size() || (!source.empty() && source.back() == '\n'))
      out.text.push_back('\n');
    if (static_cast<int>(i) == config_marker && !inserted_after_config.empty()) {
      out.text += inserted_after_config;
    }
  }
  return out;
}

}  // namespace strata
