// splice.cc: keeps strata.toml's generated blocks current inside the instruction source.
#include "compile/splice.h"

#include <map>

#include "bands/markers.h"
#include "markdown/markdown_blocks.h"

namespace strata {

namespace {

struct Span {
  int begin = 0;  // 0-based line index of the begin marker
  int end = -1;   // 0-based line index of the end marker
};

// Where the blocks and the config marker are in the source.
struct BlockMap {
  std::map<std::string, Span> spans;
  int config_marker = -1;  // 0-based line index of the first config marker, -1 when none
};

Location At(std::string_view path, int index) { return {std::string(path), index + 1, 1}; }

// Records a begin or end marker at line `i` in *map; `open` is the block being read.
Status NoteMarker(std::string_view line, int i, std::string_view path, std::string* open,
                  BlockMap* map) {
  if (std::string name = BlockMarkerName(line, BlockMarkerVerb::kBegin); !name.empty()) {
    if (!open->empty()) {
      return MakeError(ErrorKind::kParse,
                       "generated block '" + name + "' begins inside block '" + *open +
                           "': add `<!-- strata:end " + *open + " -->` before it",
                       At(path, i));
    }
    if (map->spans.count(name) != 0) {
      return MakeError(ErrorKind::kParse,
                       "generated block '" + name + "' appears twice: keep one of them",
                       At(path, i));
    }
    map->spans[name] = Span{i, -1};
    *open = name;
  } else if (std::string end = BlockMarkerName(line, BlockMarkerVerb::kEnd); !end.empty()) {
    if (end != *open) {
      return MakeError(ErrorKind::kParse,
                       "`<!-- strata:end " + end + " -->` has no matching begin marker",
                       At(path, i));
    }
    map->spans[end].end = i;
    open->clear();
  }
  return {};
}

// Finds every block's begin and end line, outside code blocks, and the first config marker.
Result<BlockMap> MapBlocks(const std::vector<std::string_view>& lines, std::string_view source,
                           std::string_view path) {
  BlockMap map;
  MarkdownBlocks markdown = MapMarkdownBlocks(source);
  std::string open;  // name of the block being read
  for (int i = 0; i < static_cast<int>(lines.size()); ++i) {
    if (markdown.in_code[static_cast<size_t>(i) + 1]) {
      // Inside an open block, a marker line in a fence would make the block swallow the fence and
      // everything up to the next real end marker: refuse rather than overwrite that text.
      if (!open.empty() && IsBlockMarker(lines[i])) {
        return MakeError(ErrorKind::kParse,
                         "a generated-block marker inside a code block, while block '" + open +
                             "' is open: close the block with `<!-- strata:end " + open +
                             " -->` before the code block",
                         At(path, i));
      }
      continue;
    }
    Band band;
    if (map.config_marker < 0 && ParseBandMarker(lines[i], &band) && band == Band::kConfig) {
      map.config_marker = i;
    }
    STRATA_TRY(NoteMarker(lines[i], i, path, &open, &map));
  }
  if (!open.empty()) {
    return MakeError(ErrorKind::kParse,
                     "generated block '" + open + "' is not closed: add `<!-- strata:end " + open +
                         " -->` after its text",
                     At(path, map.spans[open].begin));
  }
  return map;
}

// What the rebuilt source needs: the new text of each block at its begin line, and the old lines
// it replaces.
struct Edits {
  std::map<int, std::string> replace;  // begin marker line -> the whole new block
  std::vector<bool> drop;              // lines of the old blocks
  std::string after_config;            // blocks the source lacks, inserted after the config marker
};

Edits PlanEdits(const std::vector<std::string_view>& lines, const BlockMap& map,
                const std::vector<GeneratedBlock>& blocks, std::string_view path,
                SpliceResult* out) {
  Edits edits;
  edits.drop.assign(lines.size(), false);
  for (const auto& block : blocks) {
    std::string rendered = BlockMarkerLine(block.name, BlockMarkerVerb::kBegin) + block.text +
                           BlockMarkerLine(block.name, BlockMarkerVerb::kEnd);
    auto it = map.spans.find(block.name);
    if (it == map.spans.end()) {
      if (map.config_marker < 0) {
        out->diagnostics.push_back(
            {Severity::kWarning,
             "block-not-placed",
             "generated block '" + block.name +
                 "' is not in the source and there is no `<!-- strata:config -->` marker to put it "
                 "after: add the marker or the block's begin/end lines",
             {std::string(path)}});
        continue;
      }
      edits.after_config += "\n" + rendered;
      out->inserted.push_back(block.name);
      continue;
    }
    std::string current;
    for (int i = it->second.begin; i <= it->second.end; ++i) {
      current.append(lines[static_cast<size_t>(i)]);
      current.push_back('\n');
      edits.drop[static_cast<size_t>(i)] = true;
    }
    if (current != rendered) out->updated.push_back(block.name);
    edits.replace[it->second.begin] = std::move(rendered);
  }
  return edits;
}

void WarnUnknownBlocks(const BlockMap& map, const std::vector<GeneratedBlock>& blocks,
                       std::string_view path, SpliceResult* out) {
  for (const auto& [name, span] : map.spans) {
    bool known = false;
    for (const auto& block : blocks) known = known || block.name == name;
    if (known) continue;
    out->diagnostics.push_back(
        {Severity::kWarning, "unknown-block",
         "generated block '" + name + "' is not defined in strata.toml; it is left as written",
         At(path, span.begin)});
  }
}

std::string ApplyEdits(std::string_view source, const std::vector<std::string_view>& lines,
                       const Edits& edits, int config_marker) {
  std::string text;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (auto r = edits.replace.find(static_cast<int>(i)); r != edits.replace.end()) {
      text += r->second;
    }
    if (edits.drop[i]) continue;
    text.append(lines[i]);
    if (i + 1 < lines.size() || (!source.empty() && source.back() == '\n')) text.push_back('\n');
    if (static_cast<int>(i) == config_marker) text += edits.after_config;
  }
  return text;
}

}  // namespace

Result<SpliceResult> SpliceBlocks(std::string_view source,
                                  const std::vector<GeneratedBlock>& blocks,
                                  std::string_view path) {
  SpliceResult out;
  if (blocks.empty() && source.find("<!-- strata:begin ") == std::string_view::npos &&
      source.find("<!-- strata:end ") == std::string_view::npos) {
    out.text = std::string(source);  // nothing to place and no block to check: skip the parse
    return out;
  }
  auto lines = SplitLines(source);
  STRATA_TRY_ASSIGN(BlockMap map, MapBlocks(lines, source, path));
  Edits edits = PlanEdits(lines, map, blocks, path, &out);
  WarnUnknownBlocks(map, blocks, path, &out);
  out.text = out.updated.empty() && out.inserted.empty()
                 ? std::string(source)
                 : ApplyEdits(source, lines, edits, map.config_marker);
  return out;
}

}  // namespace strata
