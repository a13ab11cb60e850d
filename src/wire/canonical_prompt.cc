// canonical_prompt.cc: the canonical prompt of a provider request (canonical_prompt.h): the
// block writer the codecs share, and the dispatch to the codec of the request's API (codec.h).
#include "wire/canonical_prompt.h"

#include <algorithm>

#include "wire/codec.h"

namespace strata {

using nlohmann::json;

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

void CanonicalWriter::Add(const std::string& path, std::string_view label, std::string_view body,
                          const json* cache_control) {
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

Status CanonicalWriter::Block(const json& block, const std::string& path, std::string_view role) {
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

Status CanonicalWriter::Content(const json& content, const std::string& path, std::string_view role,
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

Status CanonicalWriter::JsonArray(const json& body, const std::string& key,
                                  std::string_view label) {
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

tl::unexpected<Error> CanonicalWriter::Fail(const std::string& path,
                                            std::string_view message) const {
  return MakeError(ErrorKind::kParse,
                   "request member " + path + ": " + std::string(message) + " (as the " +
                       RequestApiName(out_.api) + " API defines it)",
                   where_);
}

Result<std::string> CanonicalWriter::RoleOf(const json& m, const std::string& path) {
  if (!m.is_object()) return Fail(path, "must be an object (a message)");
  auto it = m.find("role");
  if (it == m.end()) return std::string("user");
  if (!it->is_string()) return Fail(path + ".role", "must be a string");
  return it->get<std::string>();
}

Result<const json*> CanonicalWriter::MessagesOf(const json& body, const std::string& key) {
  auto it = body.find(key);
  if (it == body.end() || it->is_null()) return nullptr;
  if (!it->is_array()) return Fail(key, "must be an array of messages");
  return &*it;
}

namespace {

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
  CanonicalWriter w(api, where);
  if (!body.is_object()) return w.Fail("(the body)", "must be a JSON object");
  STRATA_TRY(wire::CodecFor(api).canonicalize(body, w));
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
  const wire::WireCodec& codec = wire::CodecFor(api);
  std::vector<std::string> out;
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
    if (std::find(codec.prompt_members.begin(), codec.prompt_members.end(), k) ==
        codec.prompt_members.end())
      out.push_back(k);
  }
  // The client text the canonical form leaves out differs: name it rather than hide it.
  if (codec.left_out_differences != nullptr) codec.left_out_differences(a, b, &out);
  return out;
}

}  // namespace strata
