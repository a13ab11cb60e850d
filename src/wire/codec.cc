// codec.cc: the table of wire codecs (codec.h), the one place that dispatches on the API, and
// what the codecs share: names, the renderer factory, reading recorded bodies.
#include "wire/codec.h"

#include "render/render_internal.h"

namespace strata {
namespace wire {

namespace {
// In RequestApi order: CodecFor indexes it.
const WireCodec* const kCodecs[] = {&kAnthropicMessagesCodec, &kOpenAiChatCodec,
                                    &kOpenAiResponsesCodec};
}  // namespace

const WireCodec& CodecFor(RequestApi api) { return *kCodecs[static_cast<size_t>(api)]; }

const WireCodec* CodecOfProvider(Provider provider) {
  for (const WireCodec* codec : kCodecs) {
    if (codec->provider == provider) return codec;
  }
  return nullptr;
}

std::span<const WireCodec* const> AllCodecs() { return kCodecs; }

bool RecordedMessage::operator==(const RecordedMessage& o) const {
  if (role != o.role || text != o.text || calls.size() != o.calls.size() ||
      results.size() != o.results.size())
    return false;
  for (size_t i = 0; i < calls.size(); ++i) {
    if (calls[i].id != o.calls[i].id || calls[i].name != o.calls[i].name) return false;
  }
  for (size_t i = 0; i < results.size(); ++i) {
    if (results[i].tool_call_id != o.results[i].tool_call_id ||
        results[i].text != o.results[i].text)
      return false;
  }
  return true;
}

std::string StringMember(const nlohmann::json& o, const char* key) {
  auto it = o.find(key);
  return it != o.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::string TextOf(const nlohmann::json& content) {
  if (content.is_string()) return content.get<std::string>();
  std::string out;
  if (!content.is_array()) return out;
  for (const auto& part : content) {
    if (!part.is_object() || !part.contains("text") || !part["text"].is_string()) continue;
    if (!out.empty()) out += "\n\n";
    out += part["text"].get<std::string>();
  }
  return out;
}

std::string ArgumentsOf(const nlohmann::json& v) {
  if (v.is_object()) return v.dump();
  if (v.is_string()) {
    nlohmann::json parsed = nlohmann::json::parse(v.get<std::string>(), nullptr, false);
    return parsed.is_object() ? parsed.dump() : nlohmann::json{{"input", v}}.dump();
  }
  return "{}";
}

Message ToolResultMessage(std::string id, std::string text, bool is_error) {
  return {Role::kToolResult, std::move(text), {}, std::move(id), is_error};
}

std::vector<RecordedMessage> EachRecorded(const nlohmann::json& list,
                                          RecordedMessage (*from)(const nlohmann::json&)) {
  std::vector<RecordedMessage> out;
  for (const auto& m : list) {
    if (m.is_object()) out.push_back(from(m));
  }
  return out;
}

std::vector<ToolDefinition> RecordedTools(const nlohmann::json& body) {
  std::vector<ToolDefinition> tools;
  for (const auto& t : body.value("tools", nlohmann::json::array())) {
    if (!t.is_object()) continue;
    const nlohmann::json fn = t.contains("function") ? t["function"] : t;
    nlohmann::json schema =
        fn.value("input_schema", fn.value("parameters", nlohmann::json::object()));
    tools.push_back({StringMember(fn, "name"), StringMember(fn, "description"),
                     schema.is_object() ? schema.dump() : "{}"});
  }
  return tools;
}

}  // namespace wire

const char* RequestApiName(RequestApi api) { return wire::CodecFor(api).name; }

Result<RequestApi> ParseRequestApi(std::string_view name) {
  std::string names;
  for (const wire::WireCodec* codec : wire::AllCodecs()) {
    if (codec->name == name) return codec->api;
    names += (names.empty() ? "" : ", ") + std::string(codec->name);
  }
  return MakeError(ErrorKind::kInvalidArgument,
                   "unknown API '" + std::string(name) + "' (" + names + ")");
}

std::unique_ptr<Renderer> MakeRenderer(Provider provider, const ChatTemplate* chat_template) {
  if (const wire::WireCodec* codec = wire::CodecOfProvider(provider)) return codec->make_renderer();
  return render_internal::MakeChatTemplateRenderer(chat_template);
}

}  // namespace strata
