// json_lines.cc: JSONL splitting for the transcript readers (json_lines.h).
#include "transcripts/json_lines.h"

#include "base/json_reader.h"

namespace strata {

Result<std::vector<JsonLine>> ParseJsonLines(std::string_view text, std::string_view path) {
  std::vector<JsonLine> out;
  size_t pos = 0;
  int line_no = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    std::string_view line = text.substr(pos, nl - pos);
    pos = nl + 1;
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    auto parsed = ParseJson(line, path, line_no);
    if (!parsed) {
      Error e = std::move(parsed).error();
      e.message += ": each line must be one JSON object";
      return tl::unexpected(std::move(e));
    }
    Location where{std::string(path), line_no, 0};
    if (!parsed->is_object()) {
      return MakeError(ErrorKind::kParse,
                       "each line must be one JSON object, not " + std::string(parsed->type_name()),
                       {where.path, line_no, 1});
    }
    out.push_back({std::move(where), std::move(*parsed)});
  }
  return out;
}

}  // namespace strata
