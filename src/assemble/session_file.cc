// session_file.cc: parses the session-file JSON `strata assemble` drives the assembler with. The
// format is strata's own, so every object is read strictly (json_reader.h): unknown members and
// wrong types are errors with the member's full path; names of roles and tool orders come from
// the prompt vocabulary's tables (prompt/names.h).
#include "strata/assemble.h"

#include <climits>
#include <cstdint>

#include "base/json_reader.h"
#include "base/time.h"
#include "io/file_io.h"
#include "prompt/names.h"
#include "strata/discover.h"
#include "text/text.h"

namespace strata {
namespace {

using nlohmann::json;

tl::unexpected<Error> Invalid(const JsonObjectReader& r, std::string message) {
  return MakeError(ErrorKind::kInvalidArgument, std::move(message), r.where());
}

// Reads each element of the array member `key` as a strict object (`what` names it in the type
// error), calling read(element_reader, index) and then checking for unknown members.
template <class Read>
Status ForEachObject(JsonObjectReader& parent, std::string_view key, std::string_view what,
                     Read read) {
  STRATA_TRY_ASSIGN(const json* array, parent.Array(key));
  if (array == nullptr) return {};
  for (size_t i = 0; i < array->size(); ++i) {
    JsonObjectReader r((*array)[i], parent.PathOf(key, i), parent.where(), JsonStrictness::kStrict);
    STRATA_TRY(r.ExpectObject(what));
    STRATA_TRY(read(r, i));
    STRATA_TRY(r.Finish());
  }
  return {};
}

// Reads string members, each into its target.
Status ReadStrings(JsonObjectReader& r,
                   std::initializer_list<std::pair<std::string_view, std::string*>> members) {
  for (auto [key, out] : members) STRATA_TRY(r.String(key, out));
  return {};
}

Status ReadPairs(JsonObjectReader& r, std::string_view key, std::vector<KeyValue>* out) {
  std::vector<std::pair<std::string, std::string>> pairs;
  STRATA_TRY(r.StringMap(key, &pairs));
  for (auto& [k, v] : pairs) out->push_back({std::move(k), std::move(v)});
  return {};
}

Status ReadTools(JsonObjectReader& r, std::vector<ToolDefinition>* tools) {
  return ForEachObject(r, "tools", "a tool {name, description, input_schema}",
                       [&](JsonObjectReader& t, size_t index) -> Status {
                         ToolDefinition tool;
                         STRATA_TRY(t.RequiredString("name", &tool.name));
                         for (size_t i = 0; i < tools->size(); ++i) {
                           if ((*tools)[i].name != tool.name) continue;
                           return Invalid(t, r.PathOf("tools", index) + ".name '" + tool.name +
                                                 "' repeats " + r.PathOf("tools", i) +
                                                 "; tool names must be unique");
                         }
                         STRATA_TRY(t.String("description", &tool.description));
                         if (const json* schema = t.Raw("input_schema"))
                           tool.input_schema_json = schema->dump();
                         tools->push_back(std::move(tool));
                         return {};
                       });
}

Status ReadContext(JsonObjectReader& r, ContextInputs* in) {
  STRATA_TRY(r.StringArray("rules", &in->rules));
  STRATA_TRY(ReadTools(r, &in->tools));
  STRATA_TRY(
      ForEachObject(r, "instructions", "an instruction source {key, text}",
                    [&](JsonObjectReader& s, size_t) -> Status {
                      InstructionSource source;
                      STRATA_TRY(ReadStrings(s, {{"key", &source.key}, {"text", &source.text}}));
                      in->instructions.push_back(std::move(source));
                      return {};
                    }));
  return ForEachObject(r, "skills", "a skill {name, description, location}",
                       [&](JsonObjectReader& s, size_t) -> Status {
                         SkillEntry skill;
                         STRATA_TRY(ReadStrings(s, {{"name", &skill.name},
                                                    {"description", &skill.description},
                                                    {"location", &skill.location}}));
                         in->skills.push_back(std::move(skill));
                         return {};
                       });
}

Status ReadTurn(JsonObjectReader& r, TurnInputs* turn) {
  STRATA_TRY(r.String("now", &turn->now));
  if (!turn->now.empty() && !IsRfc3339(turn->now)) {
    return Invalid(r, "'now' must be an RFC 3339 date-time such as 2026-11-29T10:00:00Z, got '" +
                          turn->now + "'");
  }
  STRATA_TRY(ReadPairs(r, "session_state", &turn->session_state));
  STRATA_TRY(ReadPairs(r, "source_state", &turn->source_state));
  return ForEachObject(r, "signals", "a signal {id, text}",
                       [&](JsonObjectReader& s, size_t) -> Status {
                         Signal signal;
                         STRATA_TRY(ReadStrings(s, {{"id", &signal.id}, {"text", &signal.text}}));
                         turn->signals.push_back(std::move(signal));
                         return {};
                       });
}

// One history message; `before` is the history so far (for the pairing rule).
Status ReadMessage(JsonObjectReader& h, const std::vector<Message>& before, Message* m) {
  std::string role;
  STRATA_TRY(h.String("role", &role));
  auto value = ValueOf(kRoleNames, role);
  if (!value) {
    return Invalid(h, h.PathOf("role") + " '" + role + "' is not one of " + NameList(kRoleNames));
  }
  m->role = *value;
  STRATA_TRY(ReadStrings(h, {{"content", &m->text}, {"tool_call_id", &m->tool_call_id}}));
  STRATA_TRY(h.Bool("is_error", &m->is_error));
  STRATA_TRY(ForEachObject(h, "tool_calls", "a tool call {id, name, arguments}",
                           [&](JsonObjectReader& c, size_t) -> Status {
                             ToolCall call;
                             STRATA_TRY(ReadStrings(c, {{"id", &call.id}, {"name", &call.name}}));
                             if (const json* args = c.Raw("arguments"))
                               call.arguments_json = args->dump();
                             m->tool_calls.push_back(std::move(call));
                             return {};
                           }));
  if (m->role == Role::kToolResult && !AnswersToolCall(before, m->tool_call_id)) {
    return Invalid(h, h.PathOf("tool_call_id") + " '" + m->tool_call_id +
                          "' answers no tool call of the preceding assistant message");
  }
  return {};
}

// An integer option that must fit an int; the range rule of each option is checked by the caller.
Status ReadIntOption(JsonObjectReader& o, std::string_view key, int* out) {
  const json* v = o.Raw(key);
  if (v == nullptr) return {};
  if (!v->is_number_integer()) return o.Fail(key, "must be an integer");
  if (v->is_number_unsigned() ? v->get<uint64_t>() > INT_MAX
                              : v->get<int64_t>() < INT_MIN || v->get<int64_t>() > INT_MAX) {
    return Invalid(o, o.PathOf(key) + " is out of range: " + v->dump());
  }
  *out = v->get<int>();
  return {};
}

Status ReadOptions(JsonObjectReader& o, AssembleOptions* options) {
  std::string order;
  STRATA_TRY(o.String("tool_order", &order));
  if (!order.empty()) {
    auto value = ValueOf(kToolOrderNames, order);
    if (!value) {
      return Invalid(o, o.PathOf("tool_order") + " must be one of " + NameList(kToolOrderNames) +
                            ", got '" + order + "'");
    }
    options->tool_order = *value;
  }
  STRATA_TRY(ReadIntOption(o, "max_tokens", &options->max_tokens));
  if (options->max_tokens < 1) {
    return Invalid(o, o.PathOf("max_tokens") + " must be a positive integer, got " +
                          std::to_string(options->max_tokens));
  }
  STRATA_TRY(ReadIntOption(o, "long_ttl_breakpoints", &options->long_ttl_breakpoints));
  if (options->long_ttl_breakpoints < 0 || options->long_ttl_breakpoints > 4) {
    return Invalid(o, o.PathOf("long_ttl_breakpoints") +
                          " must be 0 to 4 (Anthropic allows at most 4 breakpoints), got " +
                          std::to_string(options->long_ttl_breakpoints));
  }
  STRATA_TRY(o.String("prompt_cache_key", &options->prompt_cache_key));
  bool warn = false;
  STRATA_TRY(o.Bool("warn_on_volatility_order", &warn));
  if (warn) options->order_policy = OrderPolicy::kWarn;
  return {};
}

}  // namespace

Result<SessionFile> ParseSessionFile(std::string_view json_text, std::string_view path) {
  STRATA_TRY_ASSIGN(json doc, ParseJson(json_text, path));
  JsonObjectReader r(doc, "", Location{std::string(path)}, JsonStrictness::kStrict);
  STRATA_TRY(r.ExpectObject("a session"));
  SessionFile f;
  ContextInputs& in = f.inputs;
  STRATA_TRY(ReadStrings(r, {{"model", &in.model},
                             {"model_family", &in.model_family},
                             {"persona", &in.persona},
                             {"cwd", &in.cwd},
                             {"notes", &in.notes},
                             {"plan", &in.plan},
                             {"user", &f.user}}));
  STRATA_TRY(ReadContext(r, &in));
  STRATA_TRY(ReadTurn(r, &f.turn));
  STRATA_TRY(ForEachObject(r, "history", "a message {role, content}",
                           [&](JsonObjectReader& h, size_t) -> Status {
                             Message m;
                             STRATA_TRY(ReadMessage(h, f.history, &m));
                             f.history.push_back(std::move(m));
                             return {};
                           }));
  if (const json* options = r.Raw("options")) {
    JsonObjectReader o(*options, "options", r.where(), JsonStrictness::kStrict);
    STRATA_TRY(o.ExpectObject("the options"));
    STRATA_TRY(ReadOptions(o, &f.options));
    STRATA_TRY(o.Finish());
  }
  STRATA_TRY(r.Finish());
  return f;
}

Result<SessionFile> LoadSessionFile(const std::filesystem::path& path) {
  STRATA_TRY_ASSIGN(std::string bytes, ReadInputBytes(path));
  return ParseSessionFile(bytes, path == "-" ? "<stdin>" : path.string());
}

}  // namespace strata
