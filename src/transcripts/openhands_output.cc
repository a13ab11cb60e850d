// openhands_output.cc: the OpenHands output.jsonl reader (openhands_output.h): picks the instance,
// then walks its event history into requests, tool calls and results.
#include "transcripts/openhands_output.h"

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "base/json_reader.h"
#include "base/time.h"
#include "transcripts/json_lines.h"

namespace strata {
namespace {

using nlohmann::json;

constexpr JsonStrictness kLenient = JsonStrictness::kLenient;

// An object member as a lenient reader (ChildObject).
Result<std::optional<JsonObjectReader>> Child(JsonObjectReader& r, std::string_view key) {
  return ChildObject(r, key, kLenient);
}

// OpenHands writes Python's isoformat() of a local time, without an offset: read as UTC.
std::string EventTime(const std::string& text) {
  if (text.empty() || IsRfc3339(text)) return text;
  return IsRfc3339(text + "Z") ? text + "Z" : "";
}

// One token_usages entry: prompt_tokens (litellm's count, cached tokens included), cache reads
// and cache writes.
Result<RecordedUsage> UsageEntry(JsonObjectReader& u) {
  RecordedUsage out;
  STRATA_TRY_ASSIGN(out.input_tokens, ReadTokenCount(u, "prompt_tokens"));
  STRATA_TRY_ASSIGN(out.cache_read_tokens, ReadTokenCount(u, "cache_read_tokens"));
  STRATA_TRY_ASSIGN(out.cache_write_tokens, ReadTokenCount(u, "cache_write_tokens"));
  return out;
}

// The entries of the array `key` of `r` (metrics.token_usages), by response_id; `last` gets the
// response_id of the final entry.
Status ReadUsages(JsonObjectReader& r, std::string_view key,
                  std::map<std::string, RecordedUsage>* out, std::string* last = nullptr) {
  STRATA_TRY_ASSIGN(const json* list, r.Array(key));
  for (size_t i = 0; list != nullptr && i < list->size(); ++i) {
    JsonObjectReader u((*list)[i], r.PathOf(key, i), r.where(), kLenient);
    STRATA_TRY(u.ExpectObject("a token usage entry"));
    std::string id;
    STRATA_TRY(u.String("response_id", &id));
    STRATA_TRY_ASSIGN(RecordedUsage usage, UsageEntry(u));
    if (!id.empty()) (*out)[id] = usage;
    if (last != nullptr) *last = id;
  }
  return {};
}

class OpenHandsReader {
 public:
  OpenHandsReader() { t_.format = "openhands"; }

  Status Read(const JsonLine& line) {
    JsonObjectReader r(line.value, "", line.where, kLenient);
    STRATA_TRY_ASSIGN(auto metadata, Child(r, "metadata"));
    if (metadata) {
      STRATA_TRY_ASSIGN(auto llm, Child(*metadata, "llm_config"));
      if (llm) STRATA_TRY(llm->String("model", &ctx_.model));
    }
    STRATA_TRY_ASSIGN(auto metrics, Child(r, "metrics"));
    if (metrics) STRATA_TRY(ReadUsages(*metrics, "token_usages", &usages_));
    STRATA_TRY_ASSIGN(const json* history, r.Array("history"));
    for (size_t i = 0; history != nullptr && i < history->size(); ++i) {
      JsonObjectReader e((*history)[i], r.PathOf("history", i), r.where(), kLenient);
      STRATA_TRY(e.ExpectObject("an event"));
      STRATA_TRY(Event(e));
    }
    return {};
  }

  Transcript Finish() {
    Flush();
    if (!context_emitted_) EmitContext("");
    return std::move(t_);
  }

 private:
  // What tool_call_metadata says of an event: the call and the response it came from.
  struct CallMeta {
    std::string function, call_id, response_id, text;
    json arguments = json::object();
    std::optional<RecordedUsage> usage;  // from model_response.usage, when token_usages lacks it
  };

  Status Event(JsonObjectReader& e) {
    std::string source, action, observation, time;
    STRATA_TRY(e.String("source", &source));
    STRATA_TRY(e.String("action", &action));
    STRATA_TRY(e.String("observation", &observation));
    STRATA_TRY(e.String("timestamp", &time));
    time = EventTime(time);
    STRATA_TRY_ASSIGN(auto meta, Meta(e));
    STRATA_TRY_ASSIGN(auto args, Child(e, "args"));
    if (action == "system") return System(args, time);
    if (!context_emitted_) EmitContext(time);
    if (!observation.empty()) {
      if (!meta) return {};  // recalls, agent state changes: not a tool result
      TranscriptEvent r = MakeEvent(TranscriptEventKind::kToolResult, time);
      r.message.tool_call_id = meta->call_id;
      STRATA_TRY(e.String("content", &r.message.text));
      if (open_) {
        pending_results_.push_back(std::move(r));
      } else {
        AppendEvent(&t_, std::move(r));
      }
      return {};
    }
    std::string content;
    if (args) STRATA_TRY(args->String("content", &content));
    if (source == "user" && action == "message") {
      Flush();
      AppendEvent(&t_, MakeEvent(TranscriptEventKind::kUser, time, std::move(content)));
      return {};
    }
    if (source != "agent") return {};
    if (meta) return Call(e, std::move(*meta), time);
    if (action != "message") return {};  // condensation, state changes: no model request
    Flush();
    open_ = MakeEvent(TranscriptEventKind::kAssistant, time, std::move(content));
    STRATA_TRY_ASSIGN(std::string response, LastResponseId(e));
    if (auto it = usages_.find(response); it != usages_.end()) open_->recorded = it->second;
    Flush();
    return {};
  }

  // history[0]: the system prompt and the tools.
  Status System(std::optional<JsonObjectReader>& args, const std::string& time) {
    if (!args) return {};
    STRATA_TRY(args->String("content", &ctx_.persona));
    STRATA_TRY_ASSIGN(const json* tools, args->Array("tools"));
    for (size_t i = 0; tools != nullptr && i < tools->size(); ++i) {
      JsonObjectReader t((*tools)[i], args->PathOf("tools", i), args->where(), kLenient);
      STRATA_TRY(t.ExpectObject("a tool definition"));
      STRATA_TRY_ASSIGN(auto fn, Child(t, "function"));
      JsonObjectReader& def = fn ? *fn : t;
      ToolDefinition tool;
      STRATA_TRY(def.String("name", &tool.name));
      STRATA_TRY(def.String("description", &tool.description));
      if (const json* p = def.Raw("parameters"); p != nullptr && p->is_object()) {
        tool.input_schema_json = p->dump();
      }
      if (tools_seen_.insert(tool.name).second) ctx_.tools.push_back(std::move(tool));
    }
    EmitContext(time);
    return {};
  }

  // An agent action with tool_call_metadata: one call of its response's request.
  Status Call(JsonObjectReader& e, CallMeta meta, const std::string& time) {
    if (!open_ || meta.response_id.empty() || meta.response_id != open_response_) {
      Flush();
      open_ = MakeEvent(TranscriptEventKind::kAssistant, time, std::move(meta.text));
      open_response_ = meta.response_id;
      if (auto it = usages_.find(meta.response_id); it != usages_.end()) {
        open_->recorded = it->second;
      } else {
        open_->recorded = meta.usage;
      }
    }
    if (meta.arguments.empty()) {
      if (const json* args = e.Raw("args"); args != nullptr && args->is_object()) {
        meta.arguments = *args;
      }
    }
    open_->message.tool_calls.push_back({meta.call_id, meta.function, meta.arguments.dump()});
    return {};
  }

  // tool_call_metadata: the function, the call id, and from model_response its id, the message
  // text, this call's arguments and the usage.
  Result<std::optional<CallMeta>> Meta(JsonObjectReader& e) {
    STRATA_TRY_ASSIGN(auto m, Child(e, "tool_call_metadata"));
    if (!m) return std::nullopt;
    CallMeta out;
    STRATA_TRY(m->String("function_name", &out.function));
    STRATA_TRY(m->String("tool_call_id", &out.call_id));
    STRATA_TRY_ASSIGN(auto response, Child(*m, "model_response"));
    if (!response) return out;
    STRATA_TRY(response->String("id", &out.response_id));
    STRATA_TRY_ASSIGN(auto usage, Child(*response, "usage"));
    if (usage) {
      STRATA_TRY_ASSIGN(out.usage, ResponseUsage(*usage));
    }
    STRATA_TRY_ASSIGN(const json* choices, response->Array("choices"));
    if (choices == nullptr || choices->empty()) return out;
    JsonObjectReader choice(choices->front(), response->PathOf("choices", 0), e.where(), kLenient);
    STRATA_TRY(choice.ExpectObject("a choice"));
    STRATA_TRY_ASSIGN(auto message, Child(choice, "message"));
    if (message) STRATA_TRY(MessageCall(*message, &out));
    return out;
  }

  // The response message's text and the arguments of the call `out->call_id`.
  Status MessageCall(JsonObjectReader& message, CallMeta* out) {
    if (const json* c = message.Raw("content"); c != nullptr && c->is_string()) {
      out->text = c->get<std::string>();
    }
    STRATA_TRY_ASSIGN(const json* calls, message.Array("tool_calls"));
    for (size_t i = 0; calls != nullptr && i < calls->size(); ++i) {
      JsonObjectReader call((*calls)[i], message.PathOf("tool_calls", i), message.where(),
                            kLenient);
      STRATA_TRY(call.ExpectObject("a tool call"));
      std::string id, arguments;
      STRATA_TRY(call.String("id", &id));
      if (id != out->call_id) continue;
      STRATA_TRY_ASSIGN(auto fn, Child(call, "function"));
      if (fn) STRATA_TRY(fn->String("arguments", &arguments));
      json parsed = json::parse(arguments, nullptr, false);
      if (parsed.is_object()) out->arguments = std::move(parsed);
    }
    return {};
  }

  // model_response.usage (litellm): prompt_tokens, prompt_tokens_details.cached_tokens and
  // Anthropic's cache_creation_input_tokens.
  static Result<RecordedUsage> ResponseUsage(JsonObjectReader& u) {
    RecordedUsage out;
    STRATA_TRY_ASSIGN(out.input_tokens, ReadTokenCount(u, "prompt_tokens"));
    STRATA_TRY_ASSIGN(out.cache_write_tokens, ReadTokenCount(u, "cache_creation_input_tokens"));
    STRATA_TRY_ASSIGN(auto details, Child(u, "prompt_tokens_details"));
    if (details) {
      STRATA_TRY_ASSIGN(out.cache_read_tokens, ReadTokenCount(*details, "cached_tokens"));
    }
    return out;
  }

  // The response id of an agent reply without tool calls: the last token_usages entry of the
  // metrics snapshot the event carries (llm_metrics).
  Result<std::string> LastResponseId(JsonObjectReader& e) {
    STRATA_TRY_ASSIGN(auto metrics, Child(e, "llm_metrics"));
    std::string last;
    if (metrics) STRATA_TRY(ReadUsages(*metrics, "token_usages", &snapshot_, &last));
    if (!last.empty() && !usages_.contains(last) && snapshot_.contains(last)) {
      usages_[last] = snapshot_[last];
    }
    return last;
  }

  void EmitContext(const std::string& time) {
    t_.events.push_back(MakeEvent(TranscriptEventKind::kContext, time));
    t_.events.back().context = ctx_;
    context_emitted_ = true;
  }

  // Closes the open request and appends the results that followed it.
  void Flush() {
    if (open_) AppendEvent(&t_, std::move(*open_));
    open_.reset();
    open_response_.clear();
    for (auto& r : pending_results_) AppendEvent(&t_, std::move(r));
    pending_results_.clear();
  }

  Transcript t_;
  ContextInputs ctx_;
  bool context_emitted_ = false;
  std::set<std::string> tools_seen_;
  std::map<std::string, RecordedUsage> usages_;    // metrics.token_usages by response_id
  std::map<std::string, RecordedUsage> snapshot_;  // the last llm_metrics snapshot read
  std::optional<TranscriptEvent> open_;            // the request of open_response_
  std::string open_response_;
  std::vector<TranscriptEvent> pending_results_;  // results logged while the request was open
};

// "a, b, c" of at most 20 ids, then how many more.
std::string IdList(const std::vector<std::string>& ids) {
  std::string out;
  for (size_t i = 0; i < ids.size() && i < 20; ++i) out += (i > 0 ? ", " : "") + ids[i];
  if (ids.size() > 20) out += " and " + std::to_string(ids.size() - 20) + " more";
  return out;
}

}  // namespace

Result<Transcript> ImportOpenHands(std::string_view jsonl, std::string_view path,
                                   std::string_view instance) {
  std::vector<std::string> ids, warnings;
  OpenHandsReader reader;
  bool chosen = false;
  STRATA_TRY(ForEachJsonLine(
      jsonl, path,
      [&](JsonLine&& line) -> Status {
        JsonObjectReader r(line.value, "", line.where, kLenient);
        std::string id;
        if (const json* v = r.Raw("instance_id"); v != nullptr && v->is_number_integer()) {
          id = v->dump();  // some benchmarks number their instances
        } else {
          STRATA_TRY(r.String("instance_id", &id));
        }
        ids.push_back(id);
        if (chosen || (!instance.empty() && id != instance)) return {};
        chosen = true;
        return reader.Read(line);
      },
      &warnings));
  if (instance.empty() && ids.size() > 1) {
    return MakeError(ErrorKind::kInvalidArgument,
                     "the file holds " + std::to_string(ids.size()) +
                         " OpenHands instances: pick one with --instance ID (" + IdList(ids) + ")",
                     {std::string(path)});
  }
  if (!instance.empty() && !chosen) {
    return MakeError(ErrorKind::kInvalidArgument,
                     "no instance '" + std::string(instance) + "' in the file; its instances: " +
                         (ids.empty() ? std::string("none") : IdList(ids)),
                     {std::string(path)});
  }
  Transcript t = reader.Finish();
  t.warnings.insert(t.warnings.end(), warnings.begin(), warnings.end());
  return t;
}

}  // namespace strata
