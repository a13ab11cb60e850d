// openai_chat_writer.cc: Chat Completions replies: a `chat.completion` object, or
// `chat.completion.chunk` SSE events (role first, then content / tool_calls deltas, a final chunk
// with finish_reason, a usage chunk when stream_options.include_usage, then `data: [DONE]`).
#include <fmt/format.h>

#include "serve/reply_writer.h"

namespace strata::serve {
namespace {

using nlohmann::json;

const char* FinishName(FinishReason reason) {
  switch (reason) {
    case FinishReason::kLength:
      return "length";
    case FinishReason::kToolCalls:
      return "tool_calls";
    case FinishReason::kStop:
      break;
  }
  return "stop";
}

json UsageJson(const Usage& u) {
  return {{"prompt_tokens", u.prompt_tokens},
          {"completion_tokens", u.completion_tokens},
          {"total_tokens", u.prompt_tokens + u.completion_tokens},
          {"prompt_tokens_details", {{"cached_tokens", u.cached_tokens}}}};
}

class ChatWriter : public ReplyWriter {
 public:
  explicit ChatWriter(ResponseMeta meta) : meta_(std::move(meta)) {}

  std::string Start(const Usage&) override {
    return Chunk(json{{"role", "assistant"}, {"content", ""}}, nullptr);
  }

  std::string Delta(const ReplyDelta& d) override {
    json delta = json::object();
    if (!d.content.empty()) delta["content"] = d.content;
    if (!d.reasoning.empty()) delta["reasoning_content"] = d.reasoning;
    if (d.tool_index >= 0) {
      json call{{"index", d.tool_index}, {"function", {{"arguments", d.tool_arguments}}}};
      if (!d.tool_name.empty()) {
        call["id"] = d.tool_id;
        call["type"] = "function";
        call["function"]["name"] = d.tool_name;
      }
      delta["tool_calls"] = json::array({call});
    }
    if (delta.empty()) return "";
    return Chunk(delta, nullptr);
  }

  std::string Finish(const FinishedReply& reply) override {
    std::string out = Chunk(json::object(), FinishName(reply.finish));
    if (meta_.include_usage) {
      json chunk = Base("chat.completion.chunk");
      chunk["choices"] = json::array();
      chunk["usage"] = UsageJson(reply.usage);
      out += SseEvent("", chunk);
    }
    return out + "data: [DONE]\n\n";
  }

  json Body(const FinishedReply& reply) override {
    json message{{"role", "assistant"}, {"content", reply.reply.content}};
    if (!reply.reply.reasoning.empty()) message["reasoning_content"] = reply.reply.reasoning;
    if (!reply.reply.tool_calls.empty()) {
      json calls = json::array();
      for (const TemplateToolCall& c : reply.reply.tool_calls) {
        calls.push_back({{"id", c.id},
                         {"type", "function"},
                         {"function", {{"name", c.name}, {"arguments", c.arguments}}}});
      }
      message["tool_calls"] = calls;
      if (reply.reply.content.empty()) message["content"] = nullptr;
    }
    json body = Base("chat.completion");
    body["choices"] = json::array({{{"index", 0},
                                    {"message", message},
                                    {"logprobs", nullptr},
                                    {"finish_reason", FinishName(reply.finish)}}});
    body["usage"] = UsageJson(reply.usage);
    return body;
  }

 private:
  json Base(const char* object) const {
    return {{"id", meta_.id}, {"object", object}, {"created", meta_.created},
            {"model", meta_.model}, {"system_fingerprint", "strata"}};
  }
  std::string Chunk(json delta, const char* finish) const {
    json chunk = Base("chat.completion.chunk");
    json choice{{"index", 0}, {"delta", std::move(delta)}, {"logprobs", nullptr}};
    choice["finish_reason"] = finish == nullptr ? json() : json(finish);
    chunk["choices"] = json::array({choice});
    return SseEvent("", chunk);
  }

  ResponseMeta meta_;
};

}  // namespace

std::unique_ptr<ReplyWriter> MakeChatCompletionsWriter(const ResponseMeta& meta) {
  return std::make_unique<ChatWriter>(meta);
}

}  // namespace strata::serve
