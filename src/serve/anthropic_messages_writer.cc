// anthropic_messages_writer.cc: Messages replies: a `message` object, or the SSE grammar Claude
// Code reads: message_start (usage with input and cache counts), per content block
// content_block_start / content_block_delta (text_delta, thinking_delta, input_json_delta) /
// content_block_stop, then message_delta (stop_reason, output usage) and message_stop.
// Usage: cache_read_input_tokens = tokens reused (live or restored), cache_creation_input_tokens =
// tokens prefilled into a checkpoint written for this request, input_tokens = the rest.
#include "serve/reply_writer.h"

namespace strata::serve {
namespace {

using nlohmann::json;

const char* StopReason(const FinishedReply& r) {
  if (r.finish == FinishReason::kLength) return "max_tokens";
  if (r.finish == FinishReason::kToolCalls) return "tool_use";
  return r.stop_sequence.empty() ? "end_turn" : "stop_sequence";
}

json InputUsage(const Usage& u) {
  const size_t created = u.stored_tokens > u.cached_tokens ? u.stored_tokens - u.cached_tokens : 0;
  return {{"input_tokens", u.prompt_tokens - u.cached_tokens - created},
          {"cache_read_input_tokens", u.cached_tokens},
          {"cache_creation_input_tokens", created},
          {"output_tokens", u.completion_tokens}};
}

class MessagesWriter : public ReplyWriter {
 public:
  explicit MessagesWriter(ResponseMeta meta) : meta_(std::move(meta)) {}

  std::string Start(const Usage& prompt) override {
    json message = Message(json::array(), prompt);
    message["stop_reason"] = nullptr;
    message["stop_sequence"] = nullptr;
    return SseEvent("message_start", {{"type", "message_start"}, {"message", message}});
  }

  std::string Delta(const ReplyDelta& d) override {
    std::string out;
    if (!d.reasoning.empty()) {
      out += Open("thinking", {{"type", "thinking"}, {"thinking", ""}});
      out += BlockDelta({{"type", "thinking_delta"}, {"thinking", d.reasoning}});
    }
    if (!d.content.empty()) {
      out += Open("text", {{"type", "text"}, {"text", ""}});
      out += BlockDelta({{"type", "text_delta"}, {"text", d.content}});
    }
    if (d.tool_index >= 0) {
      if (!d.tool_name.empty() || open_ != "tool_use") {
        out += Close();
        out += Open("tool_use", {{"type", "tool_use"}, {"id", d.tool_id}, {"name", d.tool_name},
                                 {"input", json::object()}});
      }
      if (!d.tool_arguments.empty())
        out += BlockDelta({{"type", "input_json_delta"}, {"partial_json", d.tool_arguments}});
    }
    return out;
  }

  std::string Finish(const FinishedReply& reply) override {
    std::string out = Close();
    json usage = InputUsage(reply.usage);
    out += SseEvent("message_delta",
                    {{"type", "message_delta"},
                     {"delta", {{"stop_reason", StopReason(reply)},
                                {"stop_sequence", StopSequence(reply)}}},
                     {"usage", usage}});
    return out + SseEvent("message_stop", {{"type", "message_stop"}});
  }

  json Body(const FinishedReply& reply) override {
    json content = json::array();
    if (!reply.reply.reasoning.empty())
      content.push_back({{"type", "thinking"}, {"thinking", reply.reply.reasoning}, {"signature", ""}});
    if (!reply.reply.content.empty())
      content.push_back({{"type", "text"}, {"text", reply.reply.content}});
    for (const TemplateToolCall& c : reply.reply.tool_calls) {
      content.push_back(
          {{"type", "tool_use"}, {"id", c.id}, {"name", c.name}, {"input", ArgumentsObject(c.arguments)}});
    }
    json message = Message(content, reply.usage);
    message["stop_reason"] = StopReason(reply);
    message["stop_sequence"] = StopSequence(reply);
    return message;
  }

 private:
  static json StopSequence(const FinishedReply& r) {
    return r.stop_sequence.empty() ? json() : json(r.stop_sequence);
  }
  json Message(json content, const Usage& usage) const {
    return {{"id", meta_.id},   {"type", "message"}, {"role", "assistant"},
            {"model", meta_.model}, {"content", std::move(content)}, {"usage", InputUsage(usage)}};
  }
  // Opens a block of `kind` unless one is open (closing a block of another kind first).
  std::string Open(const std::string& kind, const json& block) {
    if (open_ == kind && kind != "tool_use") return "";
    std::string out = Close();
    open_ = kind;
    return out + SseEvent("content_block_start", {{"type", "content_block_start"},
                                                  {"index", index_},
                                                  {"content_block", block}});
  }
  std::string BlockDelta(const json& delta) const {
    return SseEvent("content_block_delta",
                    {{"type", "content_block_delta"}, {"index", index_}, {"delta", delta}});
  }
  std::string Close() {
    if (open_.empty()) return "";
    std::string out =
        SseEvent("content_block_stop", {{"type", "content_block_stop"}, {"index", index_}});
    open_.clear();
    ++index_;
    return out;
  }

  ResponseMeta meta_;
  std::string open_;  // kind of the open block, "" when none
  int index_ = 0;
};

}  // namespace

std::unique_ptr<ReplyWriter> MakeMessagesWriter(const ResponseMeta& meta) {
  return std::make_unique<MessagesWriter>(meta);
}

}  // namespace strata::serve
