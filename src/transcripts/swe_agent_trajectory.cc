// swe_agent_trajectory.cc: the SWE-agent .traj reader (swe_agent_trajectory.h).
#include "transcripts/swe_agent_trajectory.h"

#include <nlohmann/json.hpp>
#include <set>

#include "base/json_reader.h"
#include "transcripts/json_lines.h"
#include "transcripts/member_location.h"

namespace strata {
namespace {

using nlohmann::json;

constexpr JsonStrictness kLenient = JsonStrictness::kLenient;

class SweAgentReader {
 public:
  SweAgentReader() {
    t_.format = "swe-agent";
    t_.events.push_back(MakeEvent(TranscriptEventKind::kContext, ""));
  }

  Status Read(const json& doc, const Location& where) {
    JsonObjectReader r(doc, "", where, kLenient);
    STRATA_TRY(r.ExpectObject("a SWE-agent trajectory"));
    STRATA_TRY_ASSIGN(const json* history, r.Array("history"));
    for (size_t i = 0; history != nullptr && i < history->size(); ++i) {
      JsonObjectReader m((*history)[i], r.PathOf("history", i), where, kLenient);
      STRATA_TRY(m.ExpectObject("a message"));
      STRATA_TRY(Message(m));
    }
    return Totals(r);
  }

  Transcript Finish() {
    t_.events.front().context = ctx_;
    return std::move(t_);
  }

 private:
  Status Message(JsonObjectReader& m) {
    std::string role;
    STRATA_TRY(m.String("role", &role));
    STRATA_TRY_ASSIGN(std::string text, Content(m));
    if (role == "system") {
      if (!ctx_.persona.empty()) ctx_.persona += "\n\n";
      ctx_.persona += text;
    } else if (role == "user") {
      AppendEvent(&t_, MakeEvent(TranscriptEventKind::kUser, "", std::move(text)));
    } else if (role == "assistant") {
      TranscriptEvent e = MakeEvent(TranscriptEventKind::kAssistant, "", std::move(text));
      STRATA_TRY(ToolCalls(m, &e.message));
      AppendEvent(&t_, std::move(e));
    } else if (role == "tool") {
      std::vector<std::string> ids;
      STRATA_TRY(m.StringArray("tool_call_ids", &ids));
      TranscriptEvent e = MakeEvent(TranscriptEventKind::kToolResult, "", std::move(text));
      e.message.tool_call_id = ids.empty() ? "" : ids.front();
      AppendEvent(&t_, std::move(e));
    }
    return {};
  }

  // `content`: a string, or an array of parts whose text parts are joined.
  static Result<std::string> Content(JsonObjectReader& m) {
    const json* c = m.Raw("content");
    if (c == nullptr || c->is_null()) return std::string();
    if (c->is_string()) return c->get<std::string>();
    if (!c->is_array()) return m.Fail("content", "must be a string or an array of parts");
    std::string text;
    for (size_t i = 0; i < c->size(); ++i) {
      JsonObjectReader part((*c)[i], m.PathOf("content", i), m.where(), kLenient);
      STRATA_TRY(part.ExpectObject("a content part"));
      std::string piece;
      STRATA_TRY(part.String("text", &piece));
      if (!text.empty() && !piece.empty()) text += "\n";
      text += piece;
    }
    return text;
  }

  Status ToolCalls(JsonObjectReader& m, strata::Message* out) {
    STRATA_TRY_ASSIGN(const json* calls, m.Array("tool_calls"));
    for (size_t i = 0; calls != nullptr && i < calls->size(); ++i) {
      JsonObjectReader c((*calls)[i], m.PathOf("tool_calls", i), m.where(), kLenient);
      STRATA_TRY(c.ExpectObject("a tool call"));
      ToolCall call;
      STRATA_TRY(c.String("id", &call.id));
      std::string arguments;
      if (const json* fn = c.Raw("function"); fn != nullptr) {
        JsonObjectReader f(*fn, c.PathOf("function"), m.where(), kLenient);
        STRATA_TRY(f.ExpectObject("a function call"));
        STRATA_TRY(f.String("name", &call.name));
        STRATA_TRY(f.String("arguments", &arguments));
      }
      json parsed = json::parse(arguments, nullptr, false);
      call.arguments_json = parsed.is_object() ? parsed.dump() : json{{"input", arguments}}.dump();
      if (tools_seen_.insert(call.name).second) ctx_.tools.push_back({call.name, "", "{}"});
      out->tool_calls.push_back(std::move(call));
    }
    return {};
  }

  // info.model_stats: the only usage the file holds, said in a warning.
  Status Totals(JsonObjectReader& r) {
    const json* info = r.Raw("info");
    if (info == nullptr || info->is_null()) return {};
    JsonObjectReader i(*info, "info", r.where(), kLenient);
    STRATA_TRY(i.ExpectObject("an object"));
    const json* stats = i.Raw("model_stats");
    if (stats == nullptr || stats->is_null()) return {};
    JsonObjectReader s(*stats, "info.model_stats", r.where(), kLenient);
    STRATA_TRY(s.ExpectObject("an object"));
    if (!s.Has("tokens_sent")) return {};
    STRATA_TRY_ASSIGN(size_t sent, ReadTokenCount(s, "tokens_sent"));
    STRATA_TRY_ASSIGN(size_t calls, ReadTokenCount(s, "api_calls"));
    t_.warnings.push_back(
        r.where().path +
        ": SWE-agent records only the total input of all requests (info.model_stats.tokens_sent " +
        std::to_string(sent) + " over " + std::to_string(calls) +
        " API calls), no per-request usage or cache figures: compare it with the modelled total "
        "input");
    return {};
  }

  Transcript t_;
  ContextInputs ctx_;
  std::set<std::string> tools_seen_;
};

}  // namespace

Result<Transcript> ImportSweAgentTrajectory(std::string_view text, std::string_view path) {
  std::vector<std::string> warnings;  // Python's json.dump escapes a lone surrogate as Node does
  Error error;
  std::optional<json> doc = ParseJsonDocumentReadingLoneSurrogates(text, path, &warnings, &error);
  if (!doc) return tl::unexpected(std::move(error));
  SweAgentReader reader;
  if (Status s = reader.Read(*doc, Location{std::string(path), 0, 0}); !s) {
    return tl::unexpected(WithMemberColumn(std::move(s).error(), text, 1));
  }
  Transcript t = reader.Finish();
  t.warnings.insert(t.warnings.end(), warnings.begin(), warnings.end());
  return t;
}

}  // namespace strata
