// json_lines.cc: JSONL splitting for the transcript readers (json_lines.h).
#include "transcripts/json_lines.h"

#include <algorithm>
#include <optional>

#include "base/lone_surrogates.h"
#include "transcripts/member_location.h"

namespace strata {

std::string LoneSurrogateWarning(std::string_view path, int first_line, size_t count, int lines) {
  return std::string(path) + ":" + std::to_string(first_line) + ": " + std::to_string(count) +
         " lone UTF-16 surrogate" + (count == 1 ? "" : "s") + " read as U+FFFD" +
         (lines > 1 ? " (the first on this line; " + std::to_string(lines) + " lines in all)"
                    : "") +
         ": an escape such as \\ud83d without its other half, as Node's JSON.stringify "
         "writes a string cut inside a character";
}

std::optional<nlohmann::json> ParseJsonDocumentReadingLoneSurrogates(
    std::string_view text, std::string_view path, std::vector<std::string>* warnings,
    Error* error) {
  size_t lone = 0;
  std::optional<std::string> repaired = ReplaceLoneSurrogateEscapes(text, &lone);
  auto parsed = ParseJson(repaired ? std::string_view(*repaired) : text, path);
  if (!parsed) {
    *error = std::move(parsed).error();
    return std::nullopt;
  }
  if (lone > 0) {
    const size_t at =
        size_t(std::mismatch(text.begin(), text.end(), repaired->begin()).first - text.begin());
    const int line = 1 + int(std::count(text.begin(), text.begin() + std::ptrdiff_t(at), '\n'));
    warnings->push_back(LoneSurrogateWarning(path, line, lone, 1));
  }
  return std::move(*parsed);
}

std::string BrokenLinesWarning(std::string_view path, int first_line, std::string_view first_error,
                               size_t count, int lines) {
  return std::string(path) + ":" + std::to_string(first_line) + ": " + std::to_string(count) +
         " of " + std::to_string(lines) + " lines " + (count == 1 ? "is" : "are") +
         " not a JSON object, skipped (the first on this line: " + std::string(first_error) +
         "); the other lines are read";
}

Status ForEachJsonLine(std::string_view text, std::string_view path,
                       const std::function<Status(JsonLine&&)>& on_line,
                       std::vector<std::string>* warnings, size_t* skipped_lines) {
  size_t pos = 0;
  int line_no = 0;
  // Lines that are not a JSON object, skipped by the lenient readers: their count, the first
  // one and its error (one warning for the file, at the end).
  size_t broken = 0;
  int first_broken_line = 0;
  std::string first_broken_error;
  auto skip = [&] {
    if (skipped_lines != nullptr) ++*skipped_lines;
  };
  auto warn_broken = [&](int lines) {
    if (broken > 0) {
      warnings->push_back(
          BrokenLinesWarning(path, first_broken_line, first_broken_error, broken, lines));
    }
  };
  size_t surrogates = 0;  // lone surrogate escapes read as U+FFFD, their lines and the first one
  int surrogate_lines = 0, first_surrogate_line = 0;
  auto warn_surrogates = [&] {
    if (surrogates > 0) {
      warnings->push_back(
          LoneSurrogateWarning(path, first_surrogate_line, surrogates, surrogate_lines));
    }
  };
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    const bool last_unterminated = nl == std::string_view::npos;
    if (last_unterminated) nl = text.size();
    std::string_view line = text.substr(pos, nl - pos);
    pos = nl + 1;
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    // Readers that report warnings (the logs other programs write) read a lone surrogate escape
    // as U+FFFD (base/lone_surrogates.h); strata's own format stays strict.
    size_t lone = 0;
    std::optional<std::string> repaired;
    if (warnings != nullptr) repaired = ReplaceLoneSurrogateEscapes(line, &lone);
    if (repaired) line = *repaired;
    auto parsed = ParseJson(line, path, line_no);
    if (parsed && lone > 0) {
      if (surrogates == 0) first_surrogate_line = line_no;
      surrogates += lone;
      ++surrogate_lines;
    }
    if (!parsed && last_unterminated && warnings != nullptr) {
      skip();
      warnings->push_back(std::string(path) + ":" + std::to_string(line_no) +
                          ": the last line is cut short (no newline, not complete JSON; a log "
                          "still being written?): skipped, the " +
                          std::to_string(line_no - 1 - int(broken)) + " lines before it are read");
      warn_broken(line_no - 1);
      warn_surrogates();
      return {};
    }
    // The logs other programs write: a line that is not a JSON object (cut short by a crash,
    // binary junk) is skipped, the rest of the log read (ccusage skips such a line too).
    if (warnings != nullptr && (!parsed || !parsed->is_object())) {
      skip();
      if (broken++ == 0) {
        first_broken_line = line_no;
        first_broken_error = parsed ? "a JSON " + std::string(parsed->type_name())
                                    : std::move(parsed).error().message;
      }
      continue;
    }
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
    if (Status s = on_line({std::move(where), std::move(*parsed)}); !s) {
      return tl::unexpected(WithMemberColumn(std::move(s).error(), line, line_no));
    }
  }
  if (warnings != nullptr) {
    warn_broken(line_no);
    warn_surrogates();
  }
  return {};
}

Result<std::vector<JsonLine>> ParseJsonLines(std::string_view text, std::string_view path,
                                             std::vector<std::string>* warnings) {
  std::vector<JsonLine> out;
  STRATA_TRY(ForEachJsonLine(
      text, path,
      [&](JsonLine&& line) -> Status {
        out.push_back(std::move(line));
        return {};
      },
      warnings));
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
    if (names[i].empty()) continue;
    STRATA_TRY_ASSIGN(out[i], ReadTokenCount(counts, names[i]));
  }
  STRATA_TRY(counts.Finish());
  return out;
}

Result<std::optional<JsonObjectReader>> ChildObject(JsonObjectReader& r, std::string_view key,
                                                    JsonStrictness strictness) {
  const nlohmann::json* v = r.Raw(key);
  if (v == nullptr || v->is_null()) return std::nullopt;
  if (!v->is_object()) return r.Fail(key, "must be an object");
  return std::optional<JsonObjectReader>(std::in_place, *v, r.PathOf(key), r.where(), strictness);
}

Result<size_t> ReadTokenCount(JsonObjectReader& r, std::string_view key) {
  int64_t n = 0;
  STRATA_TRY(r.Int(key, &n, 0, kMaxTokenCount));
  return static_cast<size_t>(n);
}

std::string RefusedUsageWarning(const Error& error) {
  return error.where.path + ":" + std::to_string(error.where.line) + ": " + error.message +
         ": the line's usage is refused (not counted); the rest of the log is read";
}

}  // namespace strata
