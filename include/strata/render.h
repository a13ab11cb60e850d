// render.h: renders an assembled context for a provider, with cache breakpoints where the target
// can express them and a layer map of every byte range; ChatTemplate (first, below) is the text
// render for local inference.
//
// A renderer turns three pieces into request bytes, so that a session can cache all but the last:
//   head     everything before the first history message: model, tools, the two system blocks;
//   history  committed messages, appended in chunks that end with an assistant message;
//   tail     the new input (this request's user message or tool results, and any context-update
//            notice), the volatile tail, and the closing bytes.
// The request is head + (separator) + history + tail. JSON members are written in a fixed order,
// stable ones first, and a message renders to the same bytes whether it is new input or history,
// except that new input may carry a cache_control member after its content and the volatile tail
// after its last content part. So request N is a byte prefix of request N+1 up to N's last
// breakpoint (Anthropic), and up to the end of N's history for every provider.
//
// Anthropic Messages: {"model","max_tokens","tools","system","messages"}; breakpoints at the end
// of system block 1 (covers tools + block 1), the end of system block 2, and the last content
// block of the new input (before the volatile tail): at most 3, never more than 4. The first
// `long_ttl_breakpoints` carry "ttl":"1h", the rest the default 5 minutes, so 1 h always precedes
// 5 min. OpenAI Chat Completions ({"model","prompt_cache_key","tools","messages"}) and Responses
// ({"model","prompt_cache_key","tools","input"}) carry no cache directive. The chat-template
// render is text for local inference (ChatTemplate, above) and carries none either.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "strata/prompt.h"
#include "strata/status.h"

// The chat template: the text render for local inference (the local provider of render.h).
//
// A chat template turns role-tagged messages into the exact text a local model is prefilled
// with. strata's text renderer asks the template for one message at a time, so the rendered
// prefix of a conversation never depends on what follows it (the property the KV bootstrap
// checkpoint needs). The built-in template is ChatML:
//   <|im_start|>{role}\n{content}<|im_end|>\n      per message
//   <|im_start|>assistant\n                        the generation prompt
// Tool calls and results are written into the content Hermes-style (<tool_call>{json}</tool_call>,
// <tool_response>..</tool_response>). A model's own Jinja template plugs in by implementing
// ChatTemplate: strata chat does so with llama.cpp's template engine (src/local), which accepts a
// template only when it renders each message the same way wherever it stands, so that rendering one
// message at a time gives exactly the text the template would give for the whole conversation.

namespace STRATA_EXPORT strata {

class ChatTemplate {
 public:
  virtual ~ChatTemplate() = default;
  // Names the template in reports and checkpoint identities, e.g. "chatml".
  virtual std::string_view name() const = 0;
  // Appends one message; `role` is "system", "user", "assistant" or "tool". Returns the offset in
  // *out where `content` begins, copied verbatim (so layer spans can point into it).
  virtual size_t AppendMessage(std::string_view role, std::string_view content,
                               std::string* out) const = 0;
  // AppendMessage of the concatenation of `content`'s parts, written into *out without joining
  // them first, so a huge message is not copied once more (the built-in template does so); this
  // default joins them and calls AppendMessage.
  virtual size_t AppendMessageParts(std::string_view role,
                                    std::span<const std::string_view> content,
                                    std::string* out) const {
    std::string joined;
    for (std::string_view part : content) joined.append(part);
    return AppendMessage(role, joined, out);
  }
  // Appends the text that asks the model to answer.
  virtual void AppendGenerationPrompt(std::string* out) const = 0;
  // Appends the text a template writes once, before the first message (e.g. a begin-of-text
  // marker); the text render writes it at the start of the head. ChatML has none.
  virtual void AppendStart(std::string* /*out*/) const {}
};

std::unique_ptr<ChatTemplate> MakeChatMlTemplate();

}  // namespace strata

namespace STRATA_EXPORT strata {

class ChatTemplate;

enum class Provider { kAnthropic, kOpenAiChat, kOpenAiResponses, kChatTemplate };

// "anthropic", "openai-chat", "openai-responses", "chat-template".
const char* ProviderName(Provider provider);
// Every provider name, "anthropic, openai-chat, openai-responses, chat-template" (help texts).
std::string ProviderNameList();
// The inverse of ProviderName; kInvalidArgument naming the accepted values otherwise.
Result<Provider> ParseProvider(std::string_view name);

enum class CacheTtl { k5m, k1h };

// A cache breakpoint: the cached prefix is bytes [0, offset) of the request (the cache_control
// member itself starts at `offset` and is not content). `layer` is the layer the cut closes.
struct Breakpoint {
  size_t offset = 0;
  CacheTtl ttl = CacheTtl::k5m;
  std::string layer;
};

struct RenderOptions {
  std::string model;             // written first; "model" member / not used by the text render
  int max_tokens = 4096;         // Anthropic only (the API requires it)
  int long_ttl_breakpoints = 0;  // Anthropic: the first N breakpoints get "ttl":"1h" (0..4)
  std::string prompt_cache_key;  // OpenAI only; omitted when empty
};

// A piece of system text owned by one layer (and one source, for instructions).
struct TextPart {
  LayerKind kind = LayerKind::kPersona;
  Volatility volatility = Volatility::kStatic;
  std::string source;
  std::string text;  // joined to its neighbours in the block with "\n\n"; empty parts are skipped
};

// What the head is made of, from the session's baseline.
struct PromptHead {
  std::vector<ToolDefinition> tools;  // in final order
  std::vector<TextPart> block1;       // stable: persona, rules
  std::vector<TextPart> block2;       // session-varying: environment, instructions, skills, ...
};

// Bytes with spans and breakpoints whose offsets are relative to the start of `bytes`.
struct RenderedPart {
  std::string bytes;
  LayerMap spans;
  std::vector<Breakpoint> breakpoints;
  bool has_items = false;  // head only: the message array already holds an element
};

class Renderer {
 public:
  virtual ~Renderer() = default;
  virtual Provider provider() const = 0;
  // What separates two elements of the message array: "," for JSON, "" for text.
  virtual std::string_view separator() const = 0;
  // Everything before the first history message.
  virtual void RenderHead(const PromptHead& head, const RenderOptions& options,
                          RenderedPart* out) const = 0;
  // Appends `messages` (a chunk that ends with an assistant message and starts after one or at
  // the start) to *out. `preceded` says whether an element comes before the chunk in the message
  // array (a separator is then written first).
  virtual void AppendHistory(std::span<const Message> messages, bool preceded,
                             std::string* out) const = 0;
  // The new input (non-assistant messages; may be empty), the volatile tail (may be empty) and
  // the closing bytes. `breakpoints_before` counts the head's breakpoints (TTL ordering).
  virtual void RenderTail(std::span<const Message> new_input, bool preceded, std::string_view tail,
                          const RenderOptions& options, size_t breakpoints_before,
                          RenderedPart* out) const = 0;
};

// The renderer for `provider`. kChatTemplate uses `chat_template`, or ChatML when it is null; the
// template must outlive the renderer.
std::unique_ptr<Renderer> MakeRenderer(Provider provider,
                                       const ChatTemplate* chat_template = nullptr);

// A rendered request. The bytes are the concatenation of `segments`, which view memory owned by
// the session that rendered them: valid until that session's next non-const call. Offsets in
// `layers` and `breakpoints` are into the concatenation.
struct RenderedRequest {
  Provider provider = Provider::kAnthropic;
  std::vector<std::string_view> segments;
  size_t size = 0;
  LayerMap layers;
  std::vector<Breakpoint> breakpoints;
  // End of the head: the bytes before the first conversation message (model, tools, system
  // blocks). Equal for every session of one project and baseline; for the chat-template render
  // this is the deterministic prefix a local KV checkpoint can hold (docs/chat.md).
  size_t head_end = 0;
  std::string Flatten() const;  // the request bytes as one string (O(size))
};

}  // namespace strata
