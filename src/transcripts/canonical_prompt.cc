// canonical_prompt.cc: the canonical prompt of a provider request (canonical_prompt.h): one
// writer per API, all appending header + body blocks through PromptWriter.
#include "transcripts/canonical_prompt.h"

#include <algorithm>

#include "base/enum_names.h"
#include "strata/client.h"

namespace strata {
namespace {

using nlohmann::json;

constexpr EnumName<RequestApi> kApiNames[] = {
    {RequestApi::kAnthropicMessages, "anthropic-messages"},
    {RequestApi::kOpenAiChat, "openai-chat"},
    {RequestApi::kOpenAiResponses, "openai-responses"},
};

// A copy of `v` without any "cache_control" member, at any depth.
json WithoutCacheControl(const json& v) {
  if (v.is_object()) {
    json out = json::object();
    for (auto it = v.begin(); it != v.end(); ++it) {
      if (it.key() != "cache_control") out[it.key()] = WithoutCacheControl(it.value());
    }
    return out;
  }
  if (v.is_array()) {
    json out = json::array();
    for (const auto& e : v) out.push_back(WithoutCacheControl(e));
    return out;
  }
  return v;
}

class PromptWriter {
 public:
  PromptWriter(RequestApi api, const Location& where) : where_(where) { out_.api = api; }

  // A block: `[path label]\n` + body + `\n`.
  void Add(const std::string& path, std::string_view label, std::string_view body,
           const json* cache_control = nullptr) {
    PromptBlock b;
    b.path = path;
    b.begin = out_.bytes.size();
    out_.bytes += "[" + path + " " + std::string(label) + "]\n";
    b.body = out_.bytes.size();
    out_.bytes += body;
    out_.bytes += '\n';
    b.end = out_.bytes.size();
    if (cache_control != nullptr && cache_control->is_object()) {
      b.breakpoint = true;
      b.ttl = cache_control->value("ttl", "5m") == "1h" ? CacheTtl::k1h : CacheTtl::k5m;
    }
    out_.blocks.push_back(std::move(b));
  }

  // A content block (an object with "type"): a text block's text, any other block as JSON.
  Status Block(const json& block, const std::string& path, std::string_view role) {
    if (!block.is_object()) return Fail(path, "must be an object (a content block)");
    std::string type = block.contains("type") && block["type"].is_string()
                           ? block["type"].get<std::string>()
                           : std::string("text");
    const json* cc = block.contains("cache_control") ? &block["cache_control"] : nullptr;
    std::string label = std::string(role) + " " + type;
    if (type == "text" || type == "input_text" || type == "output_text") {
      auto it = block.find("text");
      if (it == block.end() || !it->is_string())
        return Fail(path, "a text block needs a string \"text\"");
      Add(path, label, it->get_ref<const std::string&>(), cc);
      return {};
    }
    json copy = WithoutCacheControl(block);
    if (type == "tool_result" && copy.contains("content") && copy["content"].is_string()) {
      copy["content"] = json::array({{{"type", "text"}, {"text", copy["content"]}}});
    }
    Add(path, label, copy.dump(), cc);
    return {};
  }

  // `content`: a string (one text block) or an array of blocks.
  Status Content(const json& content, const std::string& path, std::string_view role,
                 std::string_view text_type) {
    if (content.is_string()) {
      Add(path + "[0]", std::string(role) + " " + std::string(text_type),
          content.get_ref<const std::string&>());
      return {};
    }
    if (!content.is_array()) return Fail(path, "must be a string or an array of content blocks");
    for (size_t i = 0; i < content.size(); ++i) {
      STRATA_TRY(Block(content[i], path + "[" + std::to_string(i) + "]", role));
    }
    return {};
  }

  // Each element of the array member `key` of `body` as one JSON block (tools).
  Status JsonArray(const json& body, const std::string& key, std::string_view label) {
    auto it = body.find(key);
    if (it == body.end() || it->is_null()) return {};
    if (!it->is_array()) return Fail(key, "must be an array");
    for (size_t i = 0; i < it->size(); ++i) {
      const json& e = (*it)[i];
      std::string path = key + "[" + std::to_string(i) + "]";
      if (!e.is_object()) return Fail(path, "must be an object");
      const json* cc = e.contains("cache_control") ? &e["cache_control"] : nullptr;
      Add(path, label, WithoutCacheControl(e).dump(), cc);
    }
    return {};
  }

  tl::unexpected<Error> Fail(const std::string& path, std::string_view message) const {
    return MakeError(ErrorKind::kParse,
                     "request member " + path + ": " + std::string(message) + " (as the " +
                         RequestApiName(out_.api) + " API defines it)",
                     where_);
  }

  CanonicalPrompt Take() { return std::move(out_); }

 private:
  CanonicalPrompt out_;
  Location where_;
};

// The role of message `m` at `path`, an error unless it is a string.
Result<std::string> RoleOf(const json& m, const std::string& path, PromptWriter& w) {
  if (!m.is_object()) return w.Fail(path, "must be an object (a message)");
  auto it = m.find("role");
  if (it == m.end()) return std::string("user");
  if (!it->is_string()) return w.Fail(path + ".role", "must be a string");
  return it->get<std::string>();
}

Result<const json*> MessagesOf(const json& body, const std::string& key, PromptWriter& w) {
  auto it = body.find(key);
  if (it == body.end() || it->is_null()) return nullptr;
  if (!it->is_array()) return w.Fail(key, "must be an array of messages");
  return &*it;
}

Status Anthropic(const json& body, PromptWriter& w) {
  STRATA_TRY(w.JsonArray(body, "tools", "tool"));
  if (auto it = body.find("system"); it != body.end() && !it->is_null()) {
    if (it->is_string()) {
      std::string_view text = LeaveOutVaryingText(it->get_ref<const std::string&>()).text;
      if (!text.empty()) w.Add("system[0]", "system text", text);
    } else if (it->is_array()) {
      for (size_t i = 0; i < it->size(); ++i) {
        const json& block = (*it)[i];
        if (i == 0 && block.is_object() && block.value("type", "text") == "text" &&
            block.contains("text") && block["text"].is_string()) {
          // Claude Code's billing block is not prompt text (strata/client.h).
          const ClientTextResult r =
              LeaveOutVaryingText(block["text"].get_ref<const std::string&>());
          if (r.left_out != nullptr) {
            const json* cc = block.contains("cache_control") ? &block["cache_control"] : nullptr;
            if (!r.text.empty() || cc != nullptr) w.Add("system[0]", "system text", r.text, cc);
            continue;
          }
        }
        STRATA_TRY(w.Block(block, "system[" + std::to_string(i) + "]", "system"));
      }
    } else {
      return w.Fail("system", "must be a string or an array of text blocks");
    }
  }
  STRATA_TRY_ASSIGN(const json* messages, MessagesOf(body, "messages", w));
  for (size_t i = 0; messages != nullptr && i < messages->size(); ++i) {
    std::string path = "messages[" + std::to_string(i) + "]";
    STRATA_TRY_ASSIGN(std::string role, RoleOf((*messages)[i], path, w));
    auto c = (*messages)[i].find("content");
    if (c == (*messages)[i].end()) return w.Fail(path, "has no \"content\"");
    STRATA_TRY(w.Content(*c, path + ".content", role, "text"));
  }
  return {};
}

// A Chat Completions message: its content, then its other members as one block.
Status ChatMessage(const json& m, const std::string& path, PromptWriter& w) {
  STRATA_TRY_ASSIGN(std::string role, RoleOf(m, path, w));
  if (auto c = m.find("content"); c != m.end() && !c->is_null()) {
    STRATA_TRY(w.Content(*c, path + ".content", role, "text"));
  }
  json rest = json::object();
  for (auto it = m.begin(); it != m.end(); ++it) {
    if (it.key() != "role" && it.key() != "content")
      rest[it.key()] = WithoutCacheControl(it.value());
  }
  if (!rest.empty()) w.Add(path + ".calls", role + " calls", rest.dump());
  return {};
}

Status OpenAiChat(const json& body, PromptWriter& w) {
  STRATA_TRY(w.JsonArray(body, "tools", "tool"));
  STRATA_TRY(w.JsonArray(body, "functions", "function"));
  if (auto it = body.find("response_format"); it != body.end() && !it->is_null()) {
    w.Add("response_format", "format", it->dump());
  }
  STRATA_TRY_ASSIGN(const json* messages, MessagesOf(body, "messages", w));
  for (size_t i = 0; messages != nullptr && i < messages->size(); ++i) {
    STRATA_TRY(ChatMessage((*messages)[i], "messages[" + std::to_string(i) + "]", w));
  }
  return {};
}

// A Responses input item: a message's content parts, any other item as one JSON block.
Status ResponsesItem(const json& item, const std::string& path, PromptWriter& w) {
  if (!item.is_object()) return w.Fail(path, "must be an object (an input item)");
  std::string type = item.value("type", "message");
  if (type != "message") {
    w.Add(path, "item " + type, WithoutCacheControl(item).dump());
    return {};
  }
  STRATA_TRY_ASSIGN(std::string role, RoleOf(item, path, w));
  auto c = item.find("content");
  if (c == item.end()) return w.Fail(path, "has no \"content\"");
  return w.Content(*c, path + ".content", role, role == "assistant" ? "output_text" : "input_text");
}

Status OpenAiResponses(const json& body, PromptWriter& w) {
  STRATA_TRY(w.JsonArray(body, "tools", "tool"));
  if (auto t = body.find("text"); t != body.end() && t->is_object() && t->contains("format")) {
    w.Add("text.format", "format", (*t)["format"].dump());
  }
  if (auto it = body.find("instructions"); it != body.end() && !it->is_null()) {
    if (!it->is_string()) return w.Fail("instructions", "must be a string");
    w.Add("instructions", "developer text", it->get_ref<const std::string&>());
  }
  auto input = body.find("input");
  if (input == body.end() || input->is_null()) return {};
  if (input->is_string()) {
    w.Add("input[0].content[0]", "user input_text", input->get_ref<const std::string&>());
    return {};
  }
  if (!input->is_array()) return w.Fail("input", "must be a string or an array of input items");
  for (size_t i = 0; i < input->size(); ++i) {
    STRATA_TRY(ResponsesItem((*input)[i], "input[" + std::to_string(i) + "]", w));
  }
  return {};
}

// The top-level members that are prompt text for `api`.
std::vector<std::string> PromptMembers(RequestApi api) {
  switch (api) {
    case RequestApi::kAnthropicMessages:
      return {"messages", "system", "tools"};
    case RequestApi::kOpenAiChat:
      return {"functions", "messages", "response_format", "tools"};
    case RequestApi::kOpenAiResponses:
      return {"input", "instructions", "text", "tools"};
  }
  return {};
}

// The billing block at the start of an Anthropic body's system[0], and its line.
struct BillingLine {
  std::string line;
  const VaryingText* entry = nullptr;
};
std::optional<BillingLine> BillingHeaderOf(const json& body) {
  if (!body.is_object()) return std::nullopt;
  auto it = body.find("system");
  if (it == body.end()) return std::nullopt;
  const json* text = nullptr;
  if (it->is_string()) text = &*it;
  if (it->is_array() && !it->empty() && (*it)[0].is_object() && (*it)[0].contains("text"))
    text = &(*it)[0]["text"];
  if (text == nullptr || !text->is_string()) return std::nullopt;
  const std::string& t = text->get_ref<const std::string&>();
  auto h = ParseBillingHeader(t);
  if (!h) return std::nullopt;
  return BillingLine{t.substr(0, h->length), h->entry};
}

bool HasBlockWithCacheControl(const json& body) {
  for (const char* key : {"messages", "tools"}) {
    auto it = body.find(key);
    if (it == body.end() || !it->is_array()) continue;
    for (const auto& e : *it) {
      if (e.is_object() && e.contains("cache_control")) return true;
      if (e.is_object() && e.contains("content") && e["content"].is_array()) {
        for (const auto& b : e["content"]) {
          if (b.is_object() && b.contains("cache_control")) return true;
        }
      }
    }
  }
  return false;
}

}  // namespace

const char* RequestApiName(RequestApi api) {
  return NameOf(kApiNames, api).data();  // the table's literals end in NUL
}

Result<RequestApi> ParseRequestApi(std::string_view name) {
  return ParseName(kApiNames, name, "API");
}

RequestApi GuessRequestApi(const json& body) {
  if (!body.is_object()) return RequestApi::kAnthropicMessages;
  if (body.contains("input") || body.contains("instructions")) return RequestApi::kOpenAiResponses;
  if (body.contains("system") || HasBlockWithCacheControl(body)) {
    return RequestApi::kAnthropicMessages;
  }
  if (auto t = body.find("tools"); t != body.end() && t->is_array()) {
    for (const auto& tool : *t) {
      if (tool.is_object() && tool.contains("input_schema")) return RequestApi::kAnthropicMessages;
      if (tool.is_object() && tool.value("type", "") == "function") return RequestApi::kOpenAiChat;
    }
  }
  if (auto m = body.find("messages"); m != body.end() && m->is_array()) {
    for (const auto& msg : *m) {
      std::string role = msg.is_object() ? msg.value("role", "") : "";
      if (role == "system" || role == "developer" || role == "tool") return RequestApi::kOpenAiChat;
    }
  }
  return RequestApi::kAnthropicMessages;
}

Result<CanonicalPrompt> CanonicalizeRequest(const json& body, RequestApi api,
                                            const Location& where) {
  PromptWriter w(api, where);
  if (!body.is_object()) return w.Fail("(the body)", "must be a JSON object");
  switch (api) {
    case RequestApi::kAnthropicMessages:
      STRATA_TRY(Anthropic(body, w));
      break;
    case RequestApi::kOpenAiChat:
      STRATA_TRY(OpenAiChat(body, w));
      break;
    case RequestApi::kOpenAiResponses:
      STRATA_TRY(OpenAiResponses(body, w));
      break;
  }
  CanonicalPrompt out = w.Take();
  if (auto m = body.find("model"); m != body.end() && m->is_string())
    out.model = m->get<std::string>();
  return out;
}

std::vector<Breakpoint> CanonicalPrompt::Breakpoints() const {
  std::vector<Breakpoint> out;
  for (const auto& b : blocks) {
    if (b.breakpoint) out.push_back({b.end, b.ttl, b.path});
  }
  return out;
}

LayerMap CanonicalPrompt::Spans() const {
  LayerMap out;
  for (const auto& b : blocks) out.push_back({b.path, Volatility::kStatic, "", b.begin, b.end});
  return out;
}

const PromptBlock* CanonicalPrompt::BlockAt(size_t offset) const {
  if (blocks.empty()) return nullptr;
  auto it = std::upper_bound(blocks.begin(), blocks.end(), offset,
                             [](size_t off, const PromptBlock& b) { return off < b.end; });
  return it == blocks.end() ? &blocks.back() : &*it;
}

std::vector<std::string> NonPromptDifferences(const json& a, const json& b, RequestApi api) {
  std::vector<std::string> prompt = PromptMembers(api), out;
  std::vector<std::string> keys;
  for (const json* side : {&a, &b}) {
    for (auto it = side->begin(); side->is_object() && it != side->end(); ++it)
      keys.push_back(it.key());
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  for (const auto& k : keys) {
    const json* va = a.contains(k) ? &a[k] : nullptr;
    const json* vb = b.contains(k) ? &b[k] : nullptr;
    if (va != nullptr && vb != nullptr && *va == *vb) continue;
    if (std::find(prompt.begin(), prompt.end(), k) == prompt.end()) out.push_back(k);
  }
  // The client text the canonical form leaves out differs: name it rather than hide it.
  if (api == RequestApi::kAnthropicMessages) {
    auto ha = BillingHeaderOf(a), hb = BillingHeaderOf(b);
    if (ha.has_value() != hb.has_value() || (ha && hb && ha->line != hb->line)) {
      const VaryingText* entry = (hb ? hb : ha)->entry;
      out.push_back(std::string("system[0]:") + ClientName(entry->client) + "/" +
                    std::string(entry->id));
    }
  }
  return out;
}

}  // namespace strata
