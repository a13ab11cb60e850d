// usage_scanner.cc: the usage a provider reported, read out of a response body as it streams past
// (record.h, UsageScanner). One JSON body, or server-sent events: lines up to a blank line make an
// event, its `data:` lines joined by LF are its JSON; only the events that carry usage count.
#include "record/usage_scanner.h"

#include "base/json_reader.h"
#include "wire/codec.h"

namespace strata {
namespace {

// Copies the members of `update` over `usage` (message_delta's usage updates message_start's).
void MergeUsage(nlohmann::json* usage, const nlohmann::json& update) {
  if (!update.is_object()) return;
  if (!usage->is_object()) *usage = nlohmann::json::object();
  for (const auto& [key, value] : update.items()) (*usage)[key] = value;
}

// The object member `key` of `object`, or null.
nlohmann::json ObjectMember(const nlohmann::json& object, const char* key) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(key);
  return it != object.end() && it->is_object() ? *it : nlohmann::json();
}

}  // namespace

void UsageScanner::Feed(std::string_view bytes) {
  pending_.append(bytes);
  if (!event_stream_) return;  // usage() parses the whole body
  size_t start = 0;
  for (size_t eol = pending_.find('\n'); eol != std::string::npos;
       eol = pending_.find('\n', start)) {
    std::string_view line(pending_.data() + start, eol - start);
    if (line.ends_with('\r')) line.remove_suffix(1);
    TakeLine(line);
    start = eol + 1;
  }
  pending_.erase(0, start);
}

void UsageScanner::TakeLine(std::string_view line) {
  if (line.empty()) {
    if (has_data_) TakeData(data_);
    data_.clear();
    has_data_ = false;
    return;
  }
  if (!line.starts_with("data:")) return;  // event:, id:, retry:, comments
  line.remove_prefix(5);
  if (line.starts_with(' ')) line.remove_prefix(1);
  if (has_data_) data_ += '\n';
  data_.append(line);
  has_data_ = true;
}

void UsageScanner::TakeData(std::string_view data) {
  if (data == "[DONE]") return;
  auto parsed = ParseJson(data, "<event>");
  if (!parsed || !parsed->is_object()) return;
  const nlohmann::json& event = *parsed;
  const nlohmann::json type = event.value("type", nlohmann::json(""));
  const std::string name = type.is_string() ? type.get<std::string>() : "";
  for (const wire::UsageEvent& e : wire::CodecFor(api_).usage_events) {
    if (*e.type != '\0' && name != e.type) continue;
    const nlohmann::json usage =
        ObjectMember(*e.parent != '\0' ? ObjectMember(event, e.parent) : event, "usage");
    if (e.merge) {
      MergeUsage(&usage_, usage);
    } else if (!usage.is_null() || *e.type != '\0') {
      usage_ = usage;  // a typed event sets usage even when it carries none
    }
    break;
  }
}

nlohmann::json UsageScanner::usage() const {
  if (event_stream_) return usage_;
  auto body = ParseJson(pending_, "<response>");
  return body ? ObjectMember(*body, "usage") : nlohmann::json();
}

}  // namespace strata
