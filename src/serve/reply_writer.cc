// reply_writer.cc: what the API writers share: SSE framing, error bodies, tool-call arguments as
// objects, and the writer for an API (see reply_writer.h).
#include "serve/reply_writer.h"

namespace strata::serve {

std::string SseEvent(std::string_view event, const nlohmann::json& data) {
  std::string out;
  if (!event.empty()) out += "event: " + std::string(event) + "\n";
  out += "data: " + data.dump() + "\n\n";
  return out;
}

nlohmann::json ErrorBody(Api api, const ApiError& error) {
  if (api == Api::kMessages) {
    return {{"type", "error"}, {"error", {{"type", error.type}, {"message", error.message}}}};
  }
  nlohmann::json e{{"message", error.message}, {"type", error.type}, {"code", nullptr}};
  e["param"] = error.param.empty() ? nlohmann::json() : nlohmann::json(error.param);
  return {{"error", e}};
}

nlohmann::json ArgumentsObject(const std::string& arguments) {
  nlohmann::json j = nlohmann::json::parse(arguments, nullptr, false);
  return j.is_object() ? j : nlohmann::json::object();
}

std::unique_ptr<ReplyWriter> MakeReplyWriter(Api api, const ResponseMeta& meta) {
  switch (api) {
    case Api::kResponses:
      return MakeResponsesWriter(meta);
    case Api::kMessages:
      return MakeMessagesWriter(meta);
    case Api::kChatCompletions:
      break;
  }
  return MakeChatCompletionsWriter(meta);
}

const char* ApiName(Api api) {
  switch (api) {
    case Api::kResponses:
      return "responses";
    case Api::kMessages:
      return "messages";
    case Api::kChatCompletions:
      break;
  }
  return "chat.completions";
}

}  // namespace strata::serve
