// capi_assemble.cc: the assembling session of the C ABI (strata_session_*, include/strata.h)
// over ContextSession: a session document (the session-file JSON of `strata assemble`) creates
// it, updates between turns are partial documents of the same format, messages are appended as
// history entries of that format, and each render hands out the request bytes with their layer
// map, breakpoints and cache events.
#include <memory>
#include <optional>
#include <string>

#include "capi/capi_internal.h"
#include "strata.h"
#include "strata/assemble.h"
#include "strata/render.h"
#include "strata/replay.h"

struct strata_session_t {
  strata::SessionFile file;  // the inputs every render uses (context, turn)
  std::optional<strata::ContextSession> session;
};

namespace strata::capi {
namespace {

Result<std::unique_ptr<strata_session_t>> CreateSession(const char* session_json) {
  STRATA_TRY_ASSIGN(SessionFile file,
                    ParseSessionFile(session_json != nullptr ? session_json : "{}", "session"));
  STRATA_TRY_ASSIGN(ContextSession session, ContextSession::Create(file.options, file.history));
  if (!file.user.empty()) STRATA_TRY(session.BeginTurn(file.inputs, file.user));
  auto out = std::make_unique<strata_session_t>();
  out->file = std::move(file);
  out->session.emplace(std::move(session));
  return out;
}

// One history entry of the session-file format. A tool result is read after a stand-in call
// with its id, because the session-file reader checks that every result answers a call.
Result<Message> ParseMessageJson(const char* message_json) {
  nlohmann::json entry = nlohmann::json::parse(message_json != nullptr ? message_json : "", nullptr,
                                               /*allow_exceptions=*/false);
  if (entry.is_discarded() || !entry.is_object()) {
    return MakeError(ErrorKind::kParse, "message: not a JSON object {role, content, ...}");
  }
  nlohmann::json history = nlohmann::json::array();
  if (entry.value("role", "") == "tool" && entry.contains("tool_call_id")) {
    history.push_back({{"role", "assistant"},
                       {"content", ""},
                       {"tool_calls", {{{"id", entry["tool_call_id"]}, {"name", "call"}}}}});
  }
  history.push_back(entry);
  STRATA_TRY_ASSIGN(SessionFile file,
                    ParseSessionFile(nlohmann::json{{"history", history}}.dump(), "message"));
  return std::move(file.history.back());
}

Result<std::string> RenderSession(strata_session_t* s, const char* provider_name,
                                  char** layers_json) {
  if (s == nullptr) return tl::unexpected(NullHandle("strata_session_render"));
  STRATA_TRY_ASSIGN(Provider provider,
                    ParseProvider(provider_name != nullptr ? provider_name : ""));
  STRATA_TRY_ASSIGN(AssembledRequest assembled,
                    s->session->Render(provider, s->file.inputs, s->file.turn));
  std::string bytes = assembled.request.Flatten();
  if (layers_json != nullptr) {
    ExplainInput in;
    in.bytes = bytes;
    in.layers = assembled.request.layers;
    in.breakpoints = assembled.request.breakpoints;
    nlohmann::json map = nlohmann::json::parse(FormatExplainInput(in));
    map.erase("request");
    map["diagnostics"] = DiagnosticsJson(assembled.diagnostics);
    nlohmann::json events = nlohmann::json::array();
    for (const CacheEvent& e : assembled.events) {
      events.push_back(
          {{"reason", CacheEventReasonName(e.reason)}, {"detail", e.detail}, {"turn", e.turn}});
    }
    map["events"] = std::move(events);
    *layers_json = CopyOut(map.dump());
  }
  return bytes;
}

// Applies a partial session document: each member present replaces the session's value; the
// others stay. The document is read by the session-file reader (the same strictness and errors).
Status UpdateSession(strata_session_t* s, const char* update_json) {
  if (s == nullptr) return tl::unexpected(NullHandle("strata_session_update"));
  nlohmann::json update = nlohmann::json::parse(update_json != nullptr ? update_json : "", nullptr,
                                                /*allow_exceptions=*/false);
  if (update.is_discarded() || !update.is_object()) {
    return MakeError(ErrorKind::kParse,
                     "update: not a JSON object (members of a session document, e.g. "
                     "{\"now\": \"2026-11-29T10:00:00Z\"})");
  }
  for (const auto& [key, value] : update.items()) {
    if (key == "history" || key == "user") {
      return MakeError(ErrorKind::kInvalidArgument,
                       "update: '" + key +
                           "' cannot be updated: begin a turn (strata_session_begin_turn) or "
                           "append a message (strata_session_append)");
    }
    if (key == "options") {
      return MakeError(ErrorKind::kInvalidArgument,
                       "update: 'options' are fixed when the session is created; create a new "
                       "session to change them");
    }
  }
  STRATA_TRY_ASSIGN(SessionFile file, ParseSessionFile(update.dump(), "update"));
  ContextInputs& in = s->file.inputs;
  TurnInputs& turn = s->file.turn;
  auto has = [&](const char* key) { return update.contains(key); };
  if (has("model")) in.model = std::move(file.inputs.model);
  if (has("model_family")) in.model_family = std::move(file.inputs.model_family);
  if (has("persona")) in.persona = std::move(file.inputs.persona);
  if (has("rules")) in.rules = std::move(file.inputs.rules);
  if (has("tools")) in.tools = std::move(file.inputs.tools);
  if (has("cwd")) in.cwd = std::move(file.inputs.cwd);
  if (has("instructions")) in.instructions = std::move(file.inputs.instructions);
  if (has("skills")) in.skills = std::move(file.inputs.skills);
  if (has("notes")) in.notes = std::move(file.inputs.notes);
  if (has("plan")) in.plan = std::move(file.inputs.plan);
  if (has("now")) turn.now = std::move(file.turn.now);
  if (has("session_state")) turn.session_state = std::move(file.turn.session_state);
  if (has("source_state")) turn.source_state = std::move(file.turn.source_state);
  if (has("signals")) turn.signals = std::move(file.turn.signals);
  return {};
}

// Replaces the history with `history_json` (an array of history entries).
Status CompactSession(strata_session_t* s, const char* history_json) {
  if (s == nullptr) return tl::unexpected(NullHandle("strata_session_compact"));
  nlohmann::json history = nlohmann::json::parse(history_json != nullptr ? history_json : "",
                                                 nullptr, /*allow_exceptions=*/false);
  if (history.is_discarded() || !history.is_array()) {
    return MakeError(ErrorKind::kParse,
                     "history: not a JSON array of history entries ({role, content, ...})");
  }
  STRATA_TRY_ASSIGN(SessionFile file,
                    ParseSessionFile(nlohmann::json{{"history", history}}.dump(), "history"));
  s->session->Compact(std::move(file.history));
  return {};
}

// 1 on success; 0 with *errptr set on error.
int Report(char** errptr, const Status& status) {
  if (status) return 1;
  SetError(errptr, status.error());
  return 0;
}

}  // namespace
}  // namespace strata::capi

extern "C" {

strata_session_t* strata_session_create(const char* session_json, char** errptr) {
  return strata::capi::DeliverHandle(errptr,
                                     [&] { return strata::capi::CreateSession(session_json); });
}

void strata_session_destroy(strata_session_t* session) { delete session; }

int strata_session_begin_turn(strata_session_t* session, const char* user_text, char** errptr) {
  if (session == nullptr) {
    return strata::capi::Report(
        errptr, tl::unexpected(strata::capi::NullHandle("strata_session_begin_turn")));
  }
  try {
    return strata::capi::Report(
        errptr, session->session->BeginTurn(session->file.inputs, user_text ? user_text : ""));
  } catch (const std::exception& e) {
    strata::capi::SetError(errptr, strata::ErrorKind::kIo, e.what());
    return 0;
  }
}

int strata_session_append(strata_session_t* session, const char* message_json, char** errptr) {
  if (session == nullptr) {
    return strata::capi::Report(errptr,
                                tl::unexpected(strata::capi::NullHandle("strata_session_append")));
  }
  try {
    auto message = strata::capi::ParseMessageJson(message_json);
    if (!message) return strata::capi::Report(errptr, tl::unexpected(message.error()));
    return strata::capi::Report(errptr, session->session->Append(std::move(*message)));
  } catch (const std::exception& e) {
    strata::capi::SetError(errptr, strata::ErrorKind::kIo, e.what());
    return 0;
  }
}

int strata_session_update(strata_session_t* session, const char* update_json, char** errptr) {
  try {
    return strata::capi::Report(errptr, strata::capi::UpdateSession(session, update_json));
  } catch (const std::exception& e) {
    strata::capi::SetError(errptr, strata::ErrorKind::kIo, e.what());
    return 0;
  }
}

int strata_session_compact(strata_session_t* session, const char* history_json, char** errptr) {
  try {
    return strata::capi::Report(errptr, strata::capi::CompactSession(session, history_json));
  } catch (const std::exception& e) {
    strata::capi::SetError(errptr, strata::ErrorKind::kIo, e.what());
    return 0;
  }
}

char* strata_session_render(strata_session_t* session, const char* provider, size_t* request_len,
                            char** layers_json, char** errptr) {
  size_t length = 0;
  char* out = strata::capi::Deliver(errptr, [&]() -> strata::Result<std::string> {
    auto bytes = strata::capi::RenderSession(session, provider, layers_json);
    if (bytes) length = bytes->size();
    return bytes;
  });
  if (request_len != nullptr) *request_len = length;
  return out;
}

}  // extern "C"
