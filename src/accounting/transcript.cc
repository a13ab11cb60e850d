// transcript.cc: strata's JSONL transcript format, the Claude Code and Codex importers, and the
// deterministic text that stands in for redacted spans (format: docs/replay.md).
#include "strata/transcript.h"

#include <nlohmann/json.hpp>

#include <map>

#include "io/file_io.h"
#include "assemble/session_file.h"
#include "base/time.h"

namespace strata {
namespace {

using nlohmann::json;

// ---- time ----

int64_t DaysFromCivil(int64_t y, unsigned m, unsigned d) {  // H. Hinnant's algorithm
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

// ---- synthesized text ----

constexpr const char* kWords[] = {
    "the",     "cache",  "prefix", "request", "model",    "token",  "context", "session",
    "file",    "test",   "build",  "change",  "value",    "return", "error",   "check",
    "string",  "list",   "output", "input",   "layer",    "stable", "config",  "source",
    "command", "result", "path",   "line",    "function", "data",   "update",  "read",
    "write",   "option", "and",    "of",      "to",       "in",     "for",     "with",
    "is",      "a",      "on",     "from",    "this",     "that",   "it",      "we",
    "run",     "step",   "time",   "order",   "list",     "new",    "old",     "set",
    "get",     "call",   "tool",   "plan",    "note",     "text",   "user",    "agent"};

uint64_t SplitMix(uint64_t* state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// ---- JSON helpers ----

std::string Str(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

size_t Num(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_number_unsigned() ? it->get<size_t>()
         : it != j.end() && it->is_number_integer()
             ? static_cast<size_t>(std::max<int64_t>(0, it->get<int64_t>()))
             : 0;
}

void SetTime(TranscriptEvent* e, std::string time) {
  e->time = std::move(time);
  e->time_s = ParseRfc3339Seconds(e->time).value_or(0);
}

struct JsonLine {
  int number = 0;  // 1-based line in the file
  json value;
};

// Splits JSONL into parsed lines; blank lines are skipped.
Result<std::vector<JsonLine>> ParseLines(std::string_view text, std::string_view path) {
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
    json j;
    try {
      j = json::parse(line);
    } catch (const json::parse_error& err) {
      int column = static_cast<int>(std::min<size_t>(err.byte > 0 ? err.byte : 1, line.size()));
      return MakeError(ErrorKind::kParse,
                       "not valid JSON (" +
                           std::string(err.what()).substr(std::string(err.what()).find(':') + 2) +
                           "): each line must be one JSON object",
                       {std::string(path), line_no, column});
    }
    if (!j.is_object()) {
      return MakeError(ErrorKind::kParse,
                       "each line must be one JSON object, not " + std::string(j.type_name()),
                       {std::string(path), line_no, 1});
    }
    out.push_back({line_no, std::move(j)});
  }
  return out;
}

ToolDefinition ParseTool(const json& j) {
  ToolDefinition t;
  t.name = Str(j, "name");
  t.description = Str(j, "description");
  if (auto it = j.find("input_schema"); it != j.end() && it->is_object()) t.input_schema = *it;
  return t;
}

json ToolJson(const ToolDefinition& t) {
  return {{"name", t.name}, {"description", t.description}, {"input_schema", t.input_schema}};
}

// Appends `event` to `out`; consecutive user messages are joined into one (a harness may log a
// command and its expansion as two).
void Push(Transcript* out, TranscriptEvent event) {
  if (event.kind == TranscriptEventKind::kUser && !out->events.empty() &&
      out->events.back().kind == TranscriptEventKind::kUser) {
    out->events.back().message.text += "\n\n" + event.message.text;
    return;
  }
  out->events.push_back(std::move(event));
}

}  // namespace

size_t Transcript::RequestCount() const {
  size_t n = 0;
  for (const auto& e : events) n += e.kind == TranscriptEventKind::kAssistant;
  return n;
}

std::optional<double> ParseRfc3339Seconds(std::string_view s) {
  if (!IsRfc3339(s)) return std::nullopt;
  auto num = [&](size_t at, size_t len) {
    int v = 0;
    for (size_t i = 0; i < len; ++i) v = v * 10 + (s[at + i] - '0');
    return v;
  };
  int64_t days = DaysFromCivil(num(0, 4), unsigned(num(5, 2)), unsigned(num(8, 2)));
  double secs = double(days) * 86400 + num(11, 2) * 3600 + num(14, 2) * 60 + num(17, 2);
  size_t i = 19;
  if (i < s.size() && s[i] == '.') {
    double scale = 0.1;
    for (++i; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i, scale /= 10)
      secs += (s[i] - '0') * scale;
  }
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
    double off = num(i + 1, 2) * 3600 + num(i + 4, 2) * 60;
    secs += s[i] == '+' ? -off : off;
  }
  return secs;
}

std::string SynthesizeText(size_t length, std::string_view seed) {
  uint64_t state = 1469598103934665603ULL;
  for (unsigned char c : seed) state = (state ^ c) * 1099511628211ULL;
  std::string out;
  out.reserve(length + 16);
  int words_on_line = 0;
  while (out.size() < length) {
    uint64_t r = SplitMix(&state);
    if (!out.empty()) {
      if (words_on_line >= 10 + int(r % 6)) {
        out += '\n';
        words_on_line = 0;
      } else {
        out += ' ';
      }
    }
    out += kWords[(r >> 8) % (sizeof kWords / sizeof kWords[0])];
    ++words_on_line;
  }
  out.resize(length);
  return out;
}

std::string ExpandRedactions(std::string_view text) {
  if (text.find("[REDACTED_") == std::string_view::npos) return std::string(text);
  std::string out;
  size_t pos = 0;
  while (true) {
    size_t at = text.find("[REDACTED_", pos);
    if (at == std::string_view::npos) break;
    size_t close = text.find(']', at);
    size_t len_at = text.find(" len=", at);
    size_t sha_at = text.find(" sha=", at);
    if (close == std::string_view::npos || len_at > close || sha_at > close) {
      out.append(text.substr(pos, at + 1 - pos));
      pos = at + 1;
      continue;
    }
    size_t length = 0;
    for (size_t i = len_at + 5; i < close && text[i] >= '0' && text[i] <= '9'; ++i) {
      length = length * 10 + size_t(text[i] - '0');
    }
    out.append(text.substr(pos, at - pos));
    out += SynthesizeText(std::min<size_t>(length, 1u << 24),
                          text.substr(sha_at + 5, close - sha_at - 5));
    pos = close + 1;
  }
  out.append(text.substr(pos));
  return out;
}

// ---- strata format ----

Result<Transcript> ParseStrataTranscript(std::string_view jsonl, std::string_view path) {
  auto lines = ParseLines(jsonl, path);
  if (!lines) return tl::unexpected(lines.error());
  Transcript t;
  t.format = "strata";
  ContextInputs ctx;
  for (const auto& [line_no, j] : *lines) {
    for (const char* key : {"type", "time", "text", "model", "model_family", "persona", "cwd",
                            "notes", "plan", "tool_call_id"}) {
      if (auto it = j.find(key); it != j.end() && !it->is_string()) {
        return MakeError(ErrorKind::kParse, std::string("member '") + key + "' must be a string",
                         {std::string(path), line_no, 1});
      }
    }
    if (std::string time = Str(j, "time"); !time.empty() && !IsRfc3339(time)) {
      return MakeError(ErrorKind::kParse,
                       "member 'time' must be an RFC 3339 date-time such as "
                       "2026-01-02T03:04:05Z, got '" +
                           time + "'",
                       {std::string(path), line_no, 1});
    }
    std::string type = Str(j, "type");
    TranscriptEvent e;
    SetTime(&e, Str(j, "time"));
    if (type == "context") {
      e.kind = TranscriptEventKind::kContext;
      if (j.contains("model")) ctx.model = Str(j, "model");
      if (j.contains("model_family")) ctx.model_family = Str(j, "model_family");
      if (j.contains("persona")) ctx.persona = Str(j, "persona");
      if (j.contains("cwd")) ctx.cwd = Str(j, "cwd");
      if (j.contains("notes")) ctx.notes = Str(j, "notes");
      if (j.contains("plan")) ctx.plan = Str(j, "plan");
      if (auto it = j.find("rules"); it != j.end() && it->is_array()) {
        ctx.rules.clear();
        for (const auto& r : *it) {
          if (r.is_string()) ctx.rules.push_back(r.get<std::string>());
        }
      }
      if (auto it = j.find("tools"); it != j.end() && it->is_array()) {
        ctx.tools.clear();
        for (const auto& tool : *it) ctx.tools.push_back(ParseTool(tool));
      }
      if (auto it = j.find("instructions"); it != j.end() && it->is_array()) {
        ctx.instructions.clear();
        for (const auto& s : *it) ctx.instructions.push_back({Str(s, "key"), Str(s, "text")});
      }
      if (auto it = j.find("skills"); it != j.end() && it->is_array()) {
        ctx.skills.clear();
        for (const auto& s : *it) {
          ctx.skills.push_back({Str(s, "name"), Str(s, "description"), Str(s, "location")});
        }
      }
      e.context = ctx;
    } else if (type == "user") {
      e.kind = TranscriptEventKind::kUser;
      e.message.role = Role::kUser;
      e.message.text = Str(j, "text");
    } else if (type == "assistant") {
      e.kind = TranscriptEventKind::kAssistant;
      e.message.role = Role::kAssistant;
      e.message.text = Str(j, "text");
      if (auto it = j.find("tool_calls"); it != j.end() && it->is_array()) {
        for (const auto& c : *it) {
          ToolCall call{Str(c, "id"), Str(c, "name"), json::object()};
          if (auto a = c.find("arguments"); a != c.end()) call.arguments = *a;
          e.message.tool_calls.push_back(std::move(call));
        }
      }
      if (auto it = j.find("usage"); it != j.end() && it->is_object()) {
        e.recorded = RecordedUsage{Num(*it, "input_tokens"), Num(*it, "cache_read_tokens"),
                                   Num(*it, "cache_write_tokens")};
      }
    } else if (type == "tool_result") {
      e.kind = TranscriptEventKind::kToolResult;
      e.message.role = Role::kToolResult;
      e.message.tool_call_id = Str(j, "tool_call_id");
      e.message.text = Str(j, "text");
      e.message.is_error = j.value("is_error", false);
    } else {
      return MakeError(ErrorKind::kParse,
                       "unknown event type '" + type +
                           "' (strata transcripts use context, user, assistant, tool_result; a "
                           "Claude Code log needs --format claude-code, a Codex rollout --format "
                           "codex)",
                       {std::string(path), line_no, 1});
    }
    t.events.push_back(std::move(e));
  }
  return t;
}

std::string FormatStrataTranscript(const Transcript& t) {
  std::string out;
  for (const auto& e : t.events) {
    json j;
    switch (e.kind) {
      case TranscriptEventKind::kContext: {
        const ContextInputs& c = e.context;
        j = {{"type", "context"}, {"model", c.model}, {"persona", c.persona}, {"rules", c.rules},
             {"cwd", c.cwd},      {"notes", c.notes}, {"plan", c.plan}};
        if (!c.model_family.empty()) j["model_family"] = c.model_family;
        j["tools"] = json::array();
        for (const auto& tool : c.tools) j["tools"].push_back(ToolJson(tool));
        j["instructions"] = json::array();
        for (const auto& s : c.instructions) {
          j["instructions"].push_back({{"key", s.key}, {"text", s.text}});
        }
        j["skills"] = json::array();
        for (const auto& s : c.skills) {
          j["skills"].push_back(
              {{"name", s.name}, {"description", s.description}, {"location", s.location}});
        }
        break;
      }
      case TranscriptEventKind::kUser:
        j = {{"type", "user"}, {"text", e.message.text}};
        break;
      case TranscriptEventKind::kAssistant: {
        j = {{"type", "assistant"}, {"text", e.message.text}};
        if (!e.message.tool_calls.empty()) {
          j["tool_calls"] = json::array();
          for (const auto& c : e.message.tool_calls) {
            j["tool_calls"].push_back({{"id", c.id}, {"name", c.name}, {"arguments", c.arguments}});
          }
        }
        if (e.recorded) {
          j["usage"] = {{"input_tokens", e.recorded->input_tokens},
                        {"cache_read_tokens", e.recorded->cache_read_tokens},
                        {"cache_write_tokens", e.recorded->cache_write_tokens}};
        }
        break;
      }
      case TranscriptEventKind::kToolResult:
        j = {{"type", "tool_result"},
             {"tool_call_id", e.message.tool_call_id},
             {"text", e.message.text}};
        if (e.message.is_error) j["is_error"] = true;
        break;
    }
    if (!e.time.empty()) j["time"] = e.time;
    out += j.dump() + "\n";
  }
  return out;
}

// ---- Claude Code ----

Result<Transcript> ImportClaudeCode(std::string_view jsonl, std::string_view path) {
  auto lines = ParseLines(jsonl, path);
  if (!lines) return tl::unexpected(lines.error());
  Transcript t;
  t.format = "claude-code";
  ContextInputs ctx;
  ctx.persona = "You are Claude Code, an interactive coding agent.";  // the log omits the prompt
  std::map<std::string, bool> tool_seen;
  std::optional<TranscriptEvent> open;  // the assistant message of the current requestId
  std::string open_request;
  std::vector<TranscriptEvent> pending_results;
  auto flush = [&] {
    if (open) Push(&t, std::move(*open));
    open.reset();
    open_request.clear();
    for (auto& r : pending_results) Push(&t, std::move(r));
    pending_results.clear();
  };
  bool context_emitted = false;
  auto emit_context = [&](const std::string& time) {
    TranscriptEvent e;
    e.kind = TranscriptEventKind::kContext;
    SetTime(&e, time);
    e.context = ctx;
    t.events.push_back(std::move(e));
    context_emitted = true;
  };
  for (const auto& [line_no, j] : *lines) {
    std::string type = Str(j, "type");
    if (type != "user" && type != "assistant") continue;
    if (j.value("isSidechain", false)) continue;
    const json* msg = j.contains("message") && j["message"].is_object() ? &j["message"] : nullptr;
    if (msg == nullptr) continue;
    std::string time = Str(j, "timestamp");
    if (!context_emitted) {
      ctx.cwd = Str(j, "cwd");
      emit_context(time);
    }
    if (type == "assistant") {
      std::string request = Str(j, "requestId");
      if (request.empty()) request = Str(*msg, "id");
      if (!open || request != open_request) {
        flush();
        std::string model = Str(*msg, "model");
        if (!model.empty() && model != ctx.model) {
          ctx.model = model;
          emit_context(time);
        }
        open = TranscriptEvent{};
        open->kind = TranscriptEventKind::kAssistant;
        open->message.role = Role::kAssistant;
        SetTime(&*open, time);
        open_request = request;
      }
      if (auto u = msg->find("usage"); u != msg->end() && u->is_object()) {
        size_t in = Num(*u, "input_tokens"), read = Num(*u, "cache_read_input_tokens"),
               write = Num(*u, "cache_creation_input_tokens");
        open->recorded = RecordedUsage{in + read + write, read, write};
      }
      if (auto c = msg->find("content"); c != msg->end() && c->is_array()) {
        for (const auto& block : *c) {
          std::string bt = Str(block, "type");
          if (bt == "text") {
            if (!open->message.text.empty()) open->message.text += "\n\n";
            open->message.text += Str(block, "text");
          } else if (bt == "tool_use") {
            ToolCall call{Str(block, "id"), Str(block, "name"), json::object()};
            if (auto in = block.find("input"); in != block.end()) call.arguments = *in;
            if (!tool_seen[call.name]) {
              tool_seen[call.name] = true;
              ctx.tools.push_back({call.name, "", json::object()});
              // A tool first seen here was offered all along: the tool surface is fixed from
              // the first request (the log does not record the definitions themselves).
              for (auto& ev : t.events) {
                if (ev.kind == TranscriptEventKind::kContext) ev.context.tools = ctx.tools;
              }
            }
            open->message.tool_calls.push_back(std::move(call));
          }
          // thinking blocks are not replayed (their signatures are opaque)
        }
      }
      continue;
    }
    // user
    const json& content = (*msg)["content"];
    if (content.is_string()) {
      flush();
      TranscriptEvent e;
      e.kind = TranscriptEventKind::kUser;
      e.message.role = Role::kUser;
      e.message.text = content.get<std::string>();
      SetTime(&e, time);
      Push(&t, std::move(e));
      continue;
    }
    if (!content.is_array()) continue;
    std::string text;
    for (const auto& block : content) {
      std::string bt = Str(block, "type");
      if (bt == "tool_result") {
        TranscriptEvent e;
        e.kind = TranscriptEventKind::kToolResult;
        e.message.role = Role::kToolResult;
        e.message.tool_call_id = Str(block, "tool_use_id");
        e.message.is_error = block.value("is_error", false);
        const json& c = block.contains("content") ? block["content"] : json();
        if (c.is_string()) {
          e.message.text = c.get<std::string>();
        } else if (c.is_array()) {
          for (const auto& part : c) {
            if (Str(part, "type") == "text") {
              if (!e.message.text.empty()) e.message.text += "\n";
              e.message.text += Str(part, "text");
            }
          }
        }
        SetTime(&e, time);
        pending_results.push_back(std::move(e));
      } else if (bt == "text") {
        if (!text.empty()) text += "\n\n";
        text += Str(block, "text");
      }
    }
    if (!text.empty()) {
      flush();
      TranscriptEvent e;
      e.kind = TranscriptEventKind::kUser;
      e.message.role = Role::kUser;
      e.message.text = std::move(text);
      SetTime(&e, time);
      Push(&t, std::move(e));
    }
  }
  flush();
  return t;
}

// ---- Codex ----

Result<Transcript> ImportCodexRollout(std::string_view jsonl, std::string_view path) {
  auto lines = ParseLines(jsonl, path);
  if (!lines) return tl::unexpected(lines.error());
  Transcript t;
  t.format = "codex";
  ContextInputs ctx;
  std::map<std::string, bool> tool_seen;
  bool started = false;  // the first real user message has been seen
  std::optional<TranscriptEvent> open;
  size_t last_total = 0;
  size_t context_index = 0;
  auto close = [&] {
    if (open) Push(&t, std::move(*open));
    open.reset();
  };
  {
    TranscriptEvent e;
    e.kind = TranscriptEventKind::kContext;
    t.events.push_back(std::move(e));
  }
  auto tool = [&](const std::string& name) {
    if (!tool_seen[name]) {
      tool_seen[name] = true;
      ctx.tools.push_back({name, "", json::object()});
    }
  };
  for (const auto& [line_no, j] : *lines) {
    std::string type = Str(j, "type");
    std::string time = Str(j, "timestamp");
    const json& p = j.contains("payload") ? j["payload"] : json();
    if (!p.is_object()) continue;
    if (type == "session_meta") {
      ctx.cwd = Str(p, "cwd");
      if (auto b = p.find("base_instructions"); b != p.end() && b->is_object()) {
        ctx.persona = ExpandRedactions(Str(*b, "text"));
      }
      if (t.events[context_index].time.empty()) SetTime(&t.events[context_index], time);
      continue;
    }
    if (type == "turn_context") {
      if (ctx.model.empty()) ctx.model = Str(p, "model");
      if (ctx.cwd.empty()) ctx.cwd = Str(p, "cwd");
      continue;
    }
    if (type == "event_msg" && Str(p, "type") == "task_started") {
      started = true;
      continue;
    }
    if (type == "event_msg" && Str(p, "type") == "token_count") {
      const json& info = p.contains("info") ? p["info"] : json();
      if (!info.is_object() || !open) continue;
      const json& total = info.contains("total_token_usage") ? info["total_token_usage"] : json();
      size_t total_tokens = total.is_object() ? Num(total, "total_tokens") : 0;
      if (total_tokens == last_total) continue;  // a repeated snapshot
      last_total = total_tokens;
      const json& last = info.contains("last_token_usage") ? info["last_token_usage"] : json();
      if (last.is_object()) {
        open->recorded =
            RecordedUsage{Num(last, "input_tokens"), Num(last, "cached_input_tokens"), 0};
      }
      close();
      continue;
    }
    if (type != "response_item") continue;
    std::string item = Str(p, "type");
    if (item == "message") {
      std::string role = Str(p, "role");
      std::string text;
      if (auto c = p.find("content"); c != p.end() && c->is_array()) {
        for (const auto& part : *c) {
          if (!text.empty()) text += "\n";
          text += ExpandRedactions(Str(part, "text"));
        }
      }
      if (role == "assistant") {
        if (!open) {
          open = TranscriptEvent{};
          open->kind = TranscriptEventKind::kAssistant;
          open->message.role = Role::kAssistant;
          SetTime(&*open, time);
        }
        if (!open->message.text.empty()) open->message.text += "\n\n";
        open->message.text += text;
      } else if (!started && role == "developer") {
        ctx.rules.push_back(text);  // permissions and collaboration instructions
      } else if (!started) {
        // Project docs and environment context come before the first task starts.
        ctx.instructions.push_back(
            {"codex:context-" + std::to_string(ctx.instructions.size()), text});
      } else {
        close();
        TranscriptEvent e;
        e.kind = TranscriptEventKind::kUser;
        e.message.role = Role::kUser;
        e.message.text = text;
        SetTime(&e, time);
        Push(&t, std::move(e));
      }
      continue;
    }
    if (item == "function_call" || item == "custom_tool_call") {
      if (!open) {
        open = TranscriptEvent{};
        open->kind = TranscriptEventKind::kAssistant;
        open->message.role = Role::kAssistant;
        SetTime(&*open, time);
      }
      std::string name = Str(p, "name");
      tool(name);
      ToolCall call{Str(p, "call_id"), name, json::object()};
      std::string args = ExpandRedactions(Str(p, item == "function_call" ? "arguments" : "input"));
      json parsed = json::parse(args, nullptr, false);
      call.arguments = parsed.is_object() ? parsed : json{{"input", args}};
      open->message.tool_calls.push_back(std::move(call));
      continue;
    }
    if (item == "function_call_output" || item == "custom_tool_call_output") {
      close();
      TranscriptEvent e;
      e.kind = TranscriptEventKind::kToolResult;
      e.message.role = Role::kToolResult;
      e.message.tool_call_id = Str(p, "call_id");
      const json& out = p.contains("output") ? p["output"] : json();
      e.message.text = ExpandRedactions(out.is_string() ? out.get<std::string>() : out.dump());
      SetTime(&e, time);
      Push(&t, std::move(e));
      continue;
    }
    // reasoning items are encrypted: not replayed
  }
  close();
  t.events[context_index].context = ctx;
  return t;
}

Result<Transcript> LoadTranscript(const std::filesystem::path& path, std::string_view format) {
  auto bytes = ReadFileBytes(path);
  if (!bytes) return tl::unexpected(bytes.error());
  std::string p = path.string();
  if (format == "strata") return ParseStrataTranscript(*bytes, p);
  if (format == "claude-code") return ImportClaudeCode(*bytes, p);
  if (format == "codex") return ImportCodexRollout(*bytes, p);
  return MakeError(
      ErrorKind::kInvalidArgument,
      "unknown transcript format '" + std::string(format) + "' (strata, claude-code, codex)");
}

}  // namespace strata
