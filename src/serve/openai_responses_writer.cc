// openai_responses_writer.cc: Responses replies: a `response` object, or the SSE events Codex
// reads: response.created, response.in_progress, per output item response.output_item.added,
// then for a message response.content_part.added / response.output_text.delta /
// response.output_text.done / response.content_part.done, for a function call
// response.function_call_arguments.delta / .done, then response.output_item.done; finally
// response.completed (status "completed", or "incomplete" at max_output_tokens) with usage incl.
// input_tokens_details.cached_tokens. Every event carries its type and a sequence_number.
#include <fmt/format.h>

#include "serve/reply_writer.h"

namespace strata::serve {
namespace {

using nlohmann::json;

json UsageJson(const Usage& u) {
  return {{"input_tokens", u.prompt_tokens},
          {"input_tokens_details", {{"cached_tokens", u.cached_tokens}}},
          {"output_tokens", u.completion_tokens},
          {"output_tokens_details", {{"reasoning_tokens", 0}}},
          {"total_tokens", u.prompt_tokens + u.completion_tokens}};
}

json MessageItem(const std::string& id, const std::string& text, const char* status) {
  return {{"id", id},
          {"type", "message"},
          {"role", "assistant"},
          {"status", status},
          {"content", json::array({{{"type", "output_text"}, {"text", text}, {"annotations", json::array()}}})}};
}

json CallItem(const std::string& id, const TemplateToolCall& c, const char* status) {
  return {{"id", id}, {"type", "function_call"}, {"status", status}, {"call_id", c.id},
          {"name", c.name}, {"arguments", c.arguments}};
}

class ResponsesWriter : public ReplyWriter {
 public:
  explicit ResponsesWriter(ResponseMeta meta) : meta_(std::move(meta)) {}

  std::string Start(const Usage&) override {
    json r = Response("in_progress", json::array());
    r["usage"] = nullptr;
    std::string out = Event("response.created", {{"response", r}});
    return out + Event("response.in_progress", {{"response", r}});
  }

  std::string Delta(const ReplyDelta& d) override {
    std::string out;
    if (!d.content.empty()) {
      if (kind_ != "message") out += OpenMessage();
      text_ += d.content;
      out += Event("response.output_text.delta",
                   {{"item_id", item_id_}, {"output_index", index_}, {"content_index", 0}, {"delta", d.content}});
    }
    if (d.tool_index >= 0) {
      if (!d.tool_name.empty() || kind_ != "function_call") {
        out += CloseItem();
        call_ = {d.tool_id, d.tool_name, ""};
        kind_ = "function_call";
        item_id_ = fmt::format("fc_{}_{}", meta_.id, index_);
        out += Event("response.output_item.added",
                     {{"output_index", index_}, {"item", CallItem(item_id_, call_, "in_progress")}});
      }
      call_.arguments += d.tool_arguments;
      if (!d.tool_arguments.empty())
        out += Event("response.function_call_arguments.delta",
                     {{"item_id", item_id_}, {"output_index", index_}, {"delta", d.tool_arguments}});
    }
    return out;
  }

  std::string Finish(const FinishedReply& reply) override {
    std::string out = CloseItem();
    json r = Body(reply);
    return out + Event("response.completed", {{"response", r}});
  }

  json Body(const FinishedReply& reply) override {
    json output = json::array();
    if (!reply.reply.content.empty() || reply.reply.tool_calls.empty())
      output.push_back(MessageItem(fmt::format("msg_{}_0", meta_.id), reply.reply.content, "completed"));
    for (size_t i = 0; i < reply.reply.tool_calls.size(); ++i)
      output.push_back(CallItem(fmt::format("fc_{}_{}", meta_.id, i + 1), reply.reply.tool_calls[i], "completed"));
    json r = Response(reply.finish == FinishReason::kLength ? "incomplete" : "completed", output);
    if (reply.finish == FinishReason::kLength) r["incomplete_details"] = {{"reason", "max_output_tokens"}};
    r["usage"] = UsageJson(reply.usage);
    return r;
  }

 private:
  json Response(const char* status, json output) const {
    return {{"id", meta_.id},         {"object", "response"}, {"created_at", meta_.created},
            {"status", status},       {"model", meta_.model}, {"output", std::move(output)},
            {"store", false},         {"error", nullptr},     {"incomplete_details", nullptr},
            {"parallel_tool_calls", false}};
  }
  std::string Event(const char* type, json data) {
    data["type"] = type;
    data["sequence_number"] = sequence_++;
    return SseEvent(type, data);
  }
  std::string OpenMessage() {
    std::string out = CloseItem();
    kind_ = "message";
    text_.clear();
    item_id_ = fmt::format("msg_{}_{}", meta_.id, index_);
    json item = MessageItem(item_id_, "", "in_progress");
    item["content"] = json::array();
    out += Event("response.output_item.added", {{"output_index", index_}, {"item", item}});
    out += Event("response.content_part.added",
                 {{"item_id", item_id_}, {"output_index", index_}, {"content_index", 0},
                  {"part", {{"type", "output_text"}, {"text", ""}, {"annotations", json::array()}}}});
    return out;
  }
  std::string CloseItem() {
    std::string out;
    if (kind_ == "message") {
      json part{{"type", "output_text"}, {"text", text_}, {"annotations", json::array()}};
      out += Event("response.output_text.done",
                   {{"item_id", item_id_}, {"output_index", index_}, {"content_index", 0}, {"text", text_}});
      out += Event("response.content_part.done",
                   {{"item_id", item_id_}, {"output_index", index_}, {"content_index", 0}, {"part", part}});
      out += Event("response.output_item.done",
                   {{"output_index", index_}, {"item", MessageItem(item_id_, text_, "completed")}});
    } else if (kind_ == "function_call") {
      out += Event("response.function_call_arguments.done",
                   {{"item_id", item_id_}, {"output_index", index_}, {"arguments", call_.arguments}});
      out += Event("response.output_item.done",
                   {{"output_index", index_}, {"item", CallItem(item_id_, call_, "completed")}});
    }
    if (!kind_.empty()) ++index_;
    kind_.clear();
    return out;
  }

  ResponseMeta meta_;
  std::string kind_;  // "message", "function_call" or "" (no open item)
  std::string item_id_, text_;
  TemplateToolCall call_;
  int index_ = 0;
  int sequence_ = 0;
};

}  // namespace

std::unique_ptr<ReplyWriter> MakeResponsesWriter(const ResponseMeta& meta) {
  return std::make_unique<ResponsesWriter>(meta);
}

}  // namespace strata::serve
