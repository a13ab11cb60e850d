// reply_writer.cc: what the API writers share: SSE framing and tool-call arguments as objects
// (see reply_writer.h).
#include "wire/reply_writer.h"

namespace strata::serve {

std::string SseEvent(std::string_view event, const nlohmann::json& data) {
  std::string out;
  if (!event.empty()) out += "event: " + std::string(event) + "\n";
  out += "data: " + data.dump() + "\n\n";
  return out;
}

nlohmann::json ArgumentsObject(const std::string& arguments) {
  nlohmann::json j = nlohmann::json::parse(arguments, nullptr, false);
  return j.is_object() ? j : nlohmann::json::object();
}

}  // namespace strata::serve
