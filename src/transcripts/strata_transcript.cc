// strata_transcript.cc: the strict reader and the writer of strata's JSONL transcripts
// (strata_transcript.h).
#include "transcripts/strata_transcript.h"

#include <nlohmann/json.hpp>

#include "base/json_reader.h"
#include "base/time.h"
#include "prompt/canonical_json.h"
#include "transcripts/json_lines.h"

namespace strata {
namespace {

using nlohmann::json;

constexpr JsonStrictness kStrict = JsonStrictness::kStrict;

// Reads the array member `key` of `r`, each element an object read by `read(element_reader)`.
template <class ReadElement>
Status ReadObjects(JsonObjectReader& r, std::string_view key, ReadElement read) {
  STRATA_TRY_ASSIGN(const json* array, r.Array(key));
  if (array == nullptr) return {};
  for (size_t i = 0; i < array->size(); ++i) {
    JsonObjectReader element((*array)[i], r.PathOf(key, i), r.where(), kStrict);
    STRATA_TRY(element.ExpectObject("an object"));
    STRATA_TRY(read(element));
    STRATA_TRY(element.Finish());
  }
  return {};
}

Status ReadContext(JsonObjectReader& r, ContextInputs* ctx) {
  STRATA_TRY(r.String("model", &ctx->model));
  STRATA_TRY(r.String("model_family", &ctx->model_family));
  STRATA_TRY(r.String("persona", &ctx->persona));
  STRATA_TRY(r.String("cwd", &ctx->cwd));
  STRATA_TRY(r.String("notes", &ctx->notes));
  STRATA_TRY(r.String("plan", &ctx->plan));
  if (r.Has("rules")) ctx->rules.clear();
  STRATA_TRY(r.StringArray("rules", &ctx->rules));
  if (r.Has("tools")) ctx->tools.clear();
  STRATA_TRY(ReadObjects(r, "tools", [&](JsonObjectReader& t) -> Status {
    ToolDefinition tool;
    STRATA_TRY(t.String("name", &tool.name));
    STRATA_TRY(t.String("description", &tool.description));
    if (const json* schema = t.Raw("input_schema"); schema != nullptr && schema->is_object())
      tool.input_schema_json = schema->dump();
    ctx->tools.push_back(std::move(tool));
    return {};
  }));
  if (r.Has("instructions")) ctx->instructions.clear();
  STRATA_TRY(ReadObjects(r, "instructions", [&](JsonObjectReader& s) -> Status {
    auto& source = ctx->instructions.emplace_back();
    STRATA_TRY(s.String("key", &source.key));
    return s.String("text", &source.text);
  }));
  if (r.Has("skills")) ctx->skills.clear();
  return ReadObjects(r, "skills", [&](JsonObjectReader& s) -> Status {
    auto& skill = ctx->skills.emplace_back();
    STRATA_TRY(s.String("name", &skill.name));
    STRATA_TRY(s.String("description", &skill.description));
    return s.String("location", &skill.location);
  });
}

Status ReadUsage(JsonObjectReader& r, std::optional<RecordedUsage>* out) {
  STRATA_TRY_ASSIGN(
      auto counts,
      ReadTokenCounts(r, "usage", {"input_tokens", "cache_read_tokens", "cache_write_tokens"},
                      kStrict));
  if (counts) *out = RecordedUsage{(*counts)[0], (*counts)[1], (*counts)[2]};
  return {};
}

Status ReadAssistant(JsonObjectReader& r, TranscriptEvent* e) {
  STRATA_TRY(r.String("text", &e->message.text));
  STRATA_TRY(ReadObjects(r, "tool_calls", [&](JsonObjectReader& c) -> Status {
    ToolCall call;
    STRATA_TRY(c.String("id", &call.id));
    STRATA_TRY(c.String("name", &call.name));
    if (const json* arguments = c.Raw("arguments")) call.arguments_json = arguments->dump();
    e->message.tool_calls.push_back(std::move(call));
    return {};
  }));
  return ReadUsage(r, &e->recorded);
}

// One line: its event, with `ctx` (the context so far) updated by a context line.
Result<TranscriptEvent> ReadEvent(const JsonLine& line, ContextInputs* ctx) {
  JsonObjectReader r(line.value, "", line.where, kStrict);
  std::string type, time;
  STRATA_TRY(r.String("type", &type));
  STRATA_TRY(r.String("time", &time));
  if (!time.empty() && !IsRfc3339(time)) {
    return r.Fail("time",
                  "must be an RFC 3339 date-time such as 2026-01-02T03:04:05Z, got '" + time + "'");
  }
  TranscriptEvent e;
  if (type == "context") {
    e = MakeEvent(TranscriptEventKind::kContext, time);
    STRATA_TRY(ReadContext(r, ctx));
    e.context = *ctx;
  } else if (type == "user") {
    e = MakeEvent(TranscriptEventKind::kUser, time);
    STRATA_TRY(r.String("text", &e.message.text));
  } else if (type == "assistant") {
    e = MakeEvent(TranscriptEventKind::kAssistant, time);
    STRATA_TRY(ReadAssistant(r, &e));
  } else if (type == "compaction") {
    e = MakeEvent(TranscriptEventKind::kCompaction, time);
    STRATA_TRY(r.String("text", &e.message.text));
  } else if (type == "tool_result") {
    e = MakeEvent(TranscriptEventKind::kToolResult, time);
    STRATA_TRY(r.String("tool_call_id", &e.message.tool_call_id));
    STRATA_TRY(r.String("text", &e.message.text));
    STRATA_TRY(r.Bool("is_error", &e.message.is_error));
  } else {
    return MakeError(
        ErrorKind::kParse,
        "unknown event type '" + type +
            "' (strata transcripts use context, user, assistant, tool_result, compaction; a "
            "Claude Code log needs --format claude-code, a Codex rollout --format "
            "codex)",
        {line.where.path, line.where.line, 1});
  }
  STRATA_TRY(r.Finish());
  return e;
}

// JSON text (prompt.h) as a value; text that is not JSON stays a string, so nothing is dropped.
json JsonValue(const std::string& text) {
  auto value = ParseJsonText(text, "");
  return value ? std::move(*value) : json(text);
}

json ContextJson(const ContextInputs& c) {
  json j = {{"type", "context"}, {"model", c.model}, {"persona", c.persona}, {"rules", c.rules},
            {"cwd", c.cwd},      {"notes", c.notes}, {"plan", c.plan}};
  if (!c.model_family.empty()) j["model_family"] = c.model_family;
  j["tools"] = json::array();
  for (const auto& t : c.tools) {
    j["tools"].push_back({{"name", t.name},
                          {"description", t.description},
                          {"input_schema", JsonValue(t.input_schema_json)}});
  }
  j["instructions"] = json::array();
  for (const auto& s : c.instructions)
    j["instructions"].push_back({{"key", s.key}, {"text", s.text}});
  j["skills"] = json::array();
  for (const auto& s : c.skills) {
    j["skills"].push_back(
        {{"name", s.name}, {"description", s.description}, {"location", s.location}});
  }
  return j;
}

json AssistantJson(const TranscriptEvent& e) {
  json j = {{"type", "assistant"}, {"text", e.message.text}};
  if (!e.message.tool_calls.empty()) {
    j["tool_calls"] = json::array();
    for (const auto& c : e.message.tool_calls) {
      j["tool_calls"].push_back(
          {{"id", c.id}, {"name", c.name}, {"arguments", JsonValue(c.arguments_json)}});
    }
  }
  if (e.recorded) {
    j["usage"] = {{"input_tokens", e.recorded->input_tokens},
                  {"cache_read_tokens", e.recorded->cache_read_tokens},
                  {"cache_write_tokens", e.recorded->cache_write_tokens}};
  }
  return j;
}

json EventJson(const TranscriptEvent& e) {
  switch (e.kind) {
    case TranscriptEventKind::kContext:
      return ContextJson(e.context);
    case TranscriptEventKind::kUser:
      return {{"type", "user"}, {"text", e.message.text}};
    case TranscriptEventKind::kCompaction:
      return {{"type", "compaction"}, {"text", e.message.text}};
    case TranscriptEventKind::kAssistant:
      return AssistantJson(e);
    case TranscriptEventKind::kToolResult: {
      json j = {{"type", "tool_result"},
                {"tool_call_id", e.message.tool_call_id},
                {"text", e.message.text}};
      if (e.message.is_error) j["is_error"] = true;
      return j;
    }
  }
  return json::object();
}

}  // namespace

Result<Transcript> ParseStrataTranscript(std::string_view jsonl, std::string_view path) {
  STRATA_TRY_ASSIGN(std::vector<JsonLine> lines, ParseJsonLines(jsonl, path));
  Transcript t;
  t.format = "strata";
  ContextInputs ctx;
  for (const JsonLine& line : lines) {
    STRATA_TRY_ASSIGN(TranscriptEvent e, ReadEvent(line, &ctx));
    t.events.push_back(std::move(e));
  }
  return t;
}

std::string FormatStrataTranscript(const Transcript& t) {
  std::string out;
  for (const auto& e : t.events) {
    json j = EventJson(e);
    if (!e.time.empty()) j["time"] = e.time;
    out += j.dump() + "\n";
  }
  return out;
}

}  // namespace strata
