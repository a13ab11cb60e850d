// json_lines.cc: JSONL splitting for the transcript readers (json_lines.h).
#include "transcripts/json_lines.h"

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

Result<std::optional<std::array<size_t, 3>>> ReadTokenCounts(
    JsonObjectReader& r, std::string_view key, const std::array<std::string_view, 3>& names,
    JsonStrictness strictness) {
  const nlohmann::json* object = r.Raw(key);
  if (object == nullptr || object->is_null()) return std::nullopt;
  JsonObjectReader counts(*object, r.PathOf(key), r.where(), strictness);
  STRATA_TRY(counts.ExpectObject("an object of token counts"));
  std::array<size_t, 3> out{};
  for (size_t i = 0; i < names.size(); ++i) {
    int64_t n = 0;
    STRATA_TRY(counts.Int(names[i], &n, 0, kMaxTokenCount));
    out[i] = static_cast<size_t>(n);
  }
  STRATA_TRY(counts.Finish());
  return out;
}

}  // namespace strata
