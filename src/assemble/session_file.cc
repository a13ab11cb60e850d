// session_file.cc: reads the session-file JSON `strata assemble` drives the assembler with, and
// the project's instruction sources (through discovery, discover.h).
#include "strata/session_file.h"

#include <cctype>
#include <climits>
#include <cstdint>
#include <nlohmann/json.hpp>

#include "io/file_io.h"
#include "strata/discover.h"
#include "text/text.h"

namespace strata {
namespace {

using nlohmann::json;

struct Reader {
  std::string path;

  tl::unexpected<Error> Bad(const std::string& member, const std::string& want) const {
    return MakeError(ErrorKind::kParse, "member '" + member + "' must be " + want, {path});
  }

  Status String(const json& obj, const char* key, std::string* out) const {
    if (!obj.contains(key)) return {};
    if (!obj[key].is_string()) return Bad(key, "a string");
    *out = obj[key].get<std::string>();
    return {};
  }
  Status Pairs(const json& obj, const char* key, std::vector<KeyValue>* out) const {
    if (!obj.contains(key)) return {};
    if (!obj[key].is_object()) return Bad(key, "an object of strings");
    for (const auto& [k, v] : obj[key].items()) {  // std::map: sorted keys
      if (!v.is_string()) return Bad(std::string(key) + "." + k, "a string");
      out->push_back({k, v.get<std::string>()});
    }
    return {};
  }
};

bool Digits(std::string_view s, size_t at, size_t n) {
  if (at + n > s.size()) return false;
  for (size_t i = at; i < at + n; ++i) {
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
  }
  return true;
}

// nlohmann's message without its "[json.exception...] parse error at line L, column C: " prefix
// (the location is reported separately).
std::string ParseErrorReason(std::string_view what) {
  size_t at = what.find(": ");
  return std::string(at == std::string_view::npos ? what : what.substr(at + 2));
}

}  // namespace

bool IsRfc3339(std::string_view t) {
  if (!Digits(t, 0, 4) || t.size() < 20 || t[4] != '-' || !Digits(t, 5, 2) || t[7] != '-' ||
      !Digits(t, 8, 2) || (t[10] != 'T' && t[10] != 't') || !Digits(t, 11, 2) || t[13] != ':' ||
      !Digits(t, 14, 2) || t[16] != ':' || !Digits(t, 17, 2)) {
    return false;
  }
  size_t i = 19;
  if (i < t.size() && t[i] == '.') {
    ++i;
    size_t start = i;
    while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) ++i;
    if (i == start) return false;
  }
  if (i < t.size() && (t[i] == 'Z' || t[i] == 'z')) return i + 1 == t.size();
  if (i < t.size() && (t[i] == '+' || t[i] == '-')) {
    return i + 6 == t.size() && Digits(t, i + 1, 2) && t[i + 3] == ':' && Digits(t, i + 4, 2);
  }
  return false;
}

Result<SessionFile> ParseSessionFile(std::string_view json_text, std::string_view path) {
  Reader r{std::string(path)};
  json doc;
  try {
    doc = json::parse(json_text);
  } catch (const json::parse_error& e) {
    // e.byte is 1-based: the byte at which parsing failed.
    size_t offset = e.byte > 0 ? e.byte - 1 : 0;
    return MakeError(ErrorKind::kParse, "not valid JSON: " + ParseErrorReason(e.what()),
                     LocationAt(r.path, json_text, offset));
  }
  if (!doc.is_object())
    return MakeError(ErrorKind::kParse, "top level must be an object", {r.path});
  SessionFile f;
  ContextInputs& in = f.inputs;
  for (auto [key, out] : {std::pair{"model", &in.model},
                          {"model_family", &in.model_family},
                          {"persona", &in.persona},
                          {"cwd", &in.cwd},
                          {"notes", &in.notes},
                          {"plan", &in.plan},
                          {"now", &f.turn.now},
                          {"user", &f.user}}) {
    if (auto s = r.String(doc, key, out); !s) return tl::unexpected(s.error());
  }
  if (!f.turn.now.empty() && !IsRfc3339(f.turn.now)) {
    return MakeError(ErrorKind::kInvalidArgument,
                     "'now' must be an RFC 3339 date-time such as 2026-11-29T10:00:00Z, got '" +
                         f.turn.now + "'",
                     {r.path});
  }
  if (doc.contains("rules")) {
    if (!doc["rules"].is_array()) return r.Bad("rules", "an array of strings");
    for (const auto& rule : doc["rules"]) {
      if (!rule.is_string()) return r.Bad("rules[]", "a string");
      in.rules.push_back(rule.get<std::string>());
    }
  }
  if (doc.contains("tools")) {
    if (!doc["tools"].is_array()) return r.Bad("tools", "an array");
    for (const auto& t : doc["tools"]) {
      if (!t.is_object() || !t.contains("name") || !t["name"].is_string()) {
        return r.Bad("tools[]", "an object with a string 'name'");
      }
      ToolDefinition tool;
      tool.name = t["name"].get<std::string>();
      for (size_t i = 0; i < in.tools.size(); ++i) {
        if (in.tools[i].name == tool.name) {
          return MakeError(ErrorKind::kInvalidArgument,
                           "tools[" + std::to_string(in.tools.size()) + "].name '" + tool.name +
                               "' repeats tools[" + std::to_string(i) +
                               "]; tool names must be unique",
                           {r.path});
        }
      }
      if (auto s = r.String(t, "description", &tool.description); !s)
        return tl::unexpected(s.error());
      if (t.contains("input_schema")) tool.input_schema = t["input_schema"];
      in.tools.push_back(std::move(tool));
    }
  }
  if (doc.contains("instructions")) {
    if (!doc["instructions"].is_array()) return r.Bad("instructions", "an array");
    for (const auto& s : doc["instructions"]) {
      InstructionSource source;
      if (!s.is_object()) return r.Bad("instructions[]", "an object {key, text}");
      if (auto st = r.String(s, "key", &source.key); !st) return tl::unexpected(st.error());
      if (auto st = r.String(s, "text", &source.text); !st) return tl::unexpected(st.error());
      in.instructions.push_back(std::move(source));
    }
  }
  if (doc.contains("skills")) {
    if (!doc["skills"].is_array()) return r.Bad("skills", "an array");
    for (const auto& s : doc["skills"]) {
      SkillEntry skill;
      if (!s.is_object()) return r.Bad("skills[]", "an object {name, description, location}");
      for (auto [key, out] : {std::pair{"name", &skill.name},
                              {"description", &skill.description},
                              {"location", &skill.location}}) {
        if (auto st = r.String(s, key, out); !st) return tl::unexpected(st.error());
      }
      in.skills.push_back(std::move(skill));
    }
  }
  if (auto s = r.Pairs(doc, "session_state", &f.turn.session_state); !s) {
    return tl::unexpected(s.error());
  }
  if (auto s = r.Pairs(doc, "source_state", &f.turn.source_state); !s) {
    return tl::unexpected(s.error());
  }
  if (doc.contains("signals")) {
    if (!doc["signals"].is_array()) return r.Bad("signals", "an array");
    for (const auto& s : doc["signals"]) {
      Signal signal;
      if (!s.is_object()) return r.Bad("signals[]", "an object {id, text}");
      if (auto st = r.String(s, "id", &signal.id); !st) return tl::unexpected(st.error());
      if (auto st = r.String(s, "text", &signal.text); !st) return tl::unexpected(st.error());
      f.turn.signals.push_back(std::move(signal));
    }
  }
  if (doc.contains("history")) {
    if (!doc["history"].is_array()) return r.Bad("history", "an array");
    size_t asked = SIZE_MAX;  // index of the assistant message tool results answer
    for (const auto& h : doc["history"]) {
      if (!h.is_object()) return r.Bad("history[]", "an object {role, content}");
      Message m;
      std::string role;
      if (auto st = r.String(h, "role", &role); !st) return tl::unexpected(st.error());
      if (role == "user") {
        m.role = Role::kUser;
      } else if (role == "assistant") {
        m.role = Role::kAssistant;
      } else if (role == "tool") {
        m.role = Role::kToolResult;
      } else if (role == "context-update") {
        m.role = Role::kContextUpdate;
      } else {
        return MakeError(
            ErrorKind::kInvalidArgument,
            "history role '" + role + "' is not one of user, assistant, tool, context-update",
            {r.path});
      }
      if (auto st = r.String(h, "content", &m.text); !st) return tl::unexpected(st.error());
      if (auto st = r.String(h, "tool_call_id", &m.tool_call_id); !st) {
        return tl::unexpected(st.error());
      }
      if (h.contains("is_error")) {
        if (!h["is_error"].is_boolean()) return r.Bad("is_error", "a boolean");
        m.is_error = h["is_error"].get<bool>();
      }
      if (h.contains("tool_calls")) {
        if (!h["tool_calls"].is_array()) return r.Bad("tool_calls", "an array");
        for (const auto& c : h["tool_calls"]) {
          if (!c.is_object()) return r.Bad("tool_calls[]", "an object {id, name, arguments}");
          ToolCall call;
          if (auto st = r.String(c, "id", &call.id); !st) return tl::unexpected(st.error());
          if (auto st = r.String(c, "name", &call.name); !st) return tl::unexpected(st.error());
          if (c.contains("arguments")) call.arguments = c["arguments"];
          m.tool_calls.push_back(std::move(call));
        }
      }
      if (m.role == Role::kToolResult) {
        bool known = false;
        if (asked != SIZE_MAX) {
          for (const ToolCall& call : f.history[asked].tool_calls) {
            known = known || call.id == m.tool_call_id;
          }
        }
        if (!known) {
          return MakeError(ErrorKind::kInvalidArgument,
                           "history[" + std::to_string(f.history.size()) + "].tool_call_id '" +
                               m.tool_call_id +
                               "' answers no tool call of the preceding assistant message",
                           {r.path});
        }
      } else {
        asked = m.role == Role::kAssistant ? f.history.size() : SIZE_MAX;
      }
      f.history.push_back(std::move(m));
    }
  }
  if (doc.contains("options")) {
    const json& o = doc["options"];
    if (!o.is_object()) return r.Bad("options", "an object");
    std::string order;
    if (auto st = r.String(o, "tool_order", &order); !st) return tl::unexpected(st.error());
    if (order == "registration") {
      f.options.tool_order = ToolOrder::kRegistration;
    } else if (!order.empty() && order != "sorted") {
      return MakeError(ErrorKind::kInvalidArgument,
                       "options.tool_order must be 'sorted' or 'registration'", {r.path});
    }
    for (auto [key, out] : {std::pair{"max_tokens", &f.options.max_tokens},
                            {"long_ttl_breakpoints", &f.options.long_ttl_breakpoints}}) {
      if (!o.contains(key)) continue;
      if (!o[key].is_number_integer()) return r.Bad(std::string("options.") + key, "an integer");
      if (o[key].is_number_unsigned()
              ? o[key].get<uint64_t>() > INT_MAX
              : o[key].get<int64_t>() < INT_MIN || o[key].get<int64_t>() > INT_MAX) {
        return MakeError(ErrorKind::kInvalidArgument,
                         std::string("options.") + key + " is out of range: " + o[key].dump(),
                         {r.path});
      }
      *out = o[key].get<int>();
    }
    if (o.contains("max_tokens") && f.options.max_tokens < 1) {
      return MakeError(ErrorKind::kInvalidArgument,
                       "options.max_tokens must be a positive integer, got " +
                           std::to_string(f.options.max_tokens),
                       {r.path});
    }
    if (f.options.long_ttl_breakpoints < 0 || f.options.long_ttl_breakpoints > 4) {
      return MakeError(ErrorKind::kInvalidArgument,
                       "options.long_ttl_breakpoints must be 0 to 4 (Anthropic allows at most 4 "
                       "breakpoints), got " +
                           std::to_string(f.options.long_ttl_breakpoints),
                       {r.path});
    }
    if (auto st = r.String(o, "prompt_cache_key", &f.options.prompt_cache_key); !st) {
      return tl::unexpected(st.error());
    }
    if (o.contains("warn_on_volatility_order")) {
      if (!o["warn_on_volatility_order"].is_boolean()) {
        return r.Bad("options.warn_on_volatility_order", "a boolean");
      }
      if (o["warn_on_volatility_order"].get<bool>()) f.options.order_policy = OrderPolicy::kWarn;
    }
  }
  return f;
}

Result<SessionFile> LoadSessionFile(const std::filesystem::path& path) {
  auto bytes = ReadFileBytes(path);
  if (!bytes) return tl::unexpected(bytes.error());
  return ParseSessionFile(*bytes, path.string());
}

Result<std::vector<InstructionSource>> LoadProjectInstructions(
    const std::filesystem::path& project, std::vector<Diagnostic>* diagnostics) {
  DiscoverOptions options;
  options.working_dir = project;
  options.project_root = project;  // --project names the root; no marker search above it
  auto discovery = Discover(options);
  if (!discovery) return tl::unexpected(discovery.error());
  if (diagnostics != nullptr) {
    diagnostics->insert(diagnostics->end(), discovery->diagnostics.begin(),
                        discovery->diagnostics.end());
  }
  std::vector<InstructionSource> sources;
  for (auto& source : discovery->sources) {
    sources.push_back({source.display_path, std::move(source.content)});
  }
  return sources;
}

}  // namespace strata
