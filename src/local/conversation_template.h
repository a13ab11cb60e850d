// conversation_template.h: a whole conversation (system text, tools, messages with tool calls and
// tool results) rendered through the model's own chat template by llama.cpp's `common` library,
// as llama-server renders /v1/chat/completions, and the model's reply parsed back into text,
// reasoning and tool calls by common's parser for that template (common_chat_parse).
//
// A template that does not describe tools itself (it renders the same text with and without
// them, e.g. ChatML; probed once) gets them as a system text strata writes: a "# Tools" section
// listing each tool's JSON on its own line inside <tools> ... </tools>, appended to the first
// system message (or forming one), so tool definitions always reach the prompt.
//
// This header carries no JSON library: common's headers bring their own, so the types here hold
// JSON as text (tool parameters, call arguments) and callers convert from strata's prompt types.
// The render is deterministic: the template sees a fixed clock (1970-01-01).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "strata/status.h"
#include "wire/reply.h"  // TemplateToolCall, ReplyDelta, ParsedReply

struct llama_model;

namespace strata {

struct TemplateMessage {
  std::string role;  // "system", "user", "assistant" or "tool"
  std::string content;
  std::string reasoning;                     // assistant: reasoning text (may be empty)
  std::vector<TemplateToolCall> tool_calls;  // assistant only
  std::string tool_call_id;                  // tool: the call it answers
  std::string tool_name;                     // tool: the called tool's name (may be empty)
};

struct TemplateTool {
  std::string name;
  std::string description;
  std::string parameters;  // JSON Schema text
};

enum class TemplateToolChoice { kAuto, kRequired, kNone };

struct TemplateConversation {
  std::vector<TemplateMessage> messages;
  std::vector<TemplateTool> tools;
  TemplateToolChoice tool_choice = TemplateToolChoice::kAuto;
  // Passed to the template (llama-server turns it on when the template supports thinking).
  bool enable_thinking = false;
  // The reply's thinking is parsed out into its reasoning (llama-server's --reasoning-format
  // deepseek / auto, common's COMMON_REASONING_FORMAT_DEEPSEEK); false (--reasoning-format none)
  // leaves it in the content, think tags and all. Also what the template is given: some render
  // an assistant message's reasoning only when the format extracts it.
  bool extract_reasoning = true;
  // The template's reasoning_effort variable (llama-server's chat_template_kwargs entry for the
  // request's reasoning_effort); empty: not set, the template's own default.
  std::string reasoning_effort;
};

// A rendered prompt and what parsing its reply needs.
struct RenderedPrompt {
  std::string text;
  std::vector<std::string> stops;  // extra stop strings the format asks for
  std::string generation_prompt;
  int format = 0;                 // common_chat_format
  std::string parser;             // serialized PEG parser of the format ("" when none)
  bool extract_reasoning = true;  // the conversation's (above): how the reply is parsed
  // The format's thinking tags (e.g. "<think>" and "</think>"; empty when the template has none):
  // what a reasoning budget counts between and forces (llama-server's reasoning budget sampler).
  std::string thinking_start;
  std::vector<std::string> thinking_end;
};

// A model's template (or the one given as text), ready to render conversations.
class ConversationTemplate {
 public:
  // `source`: the template text; empty takes the model's own (ChatML when it has none).
  // Errors: kInvalidArgument when the template does not parse.
  static Result<std::unique_ptr<ConversationTemplate>> Make(const llama_model* model,
                                                            const std::string& source);
  ~ConversationTemplate();
  ConversationTemplate(const ConversationTemplate&) = delete;
  ConversationTemplate& operator=(const ConversationTemplate&) = delete;

  // Errors: kInvalidArgument with the template's message when it fails on this conversation.
  Result<RenderedPrompt> Render(const TemplateConversation& conversation,
                                bool add_generation_prompt) const;
  // The template text in use (its SHA-256 goes into checkpoint identities).
  const std::string& source() const { return source_; }
  // Whether the template renders tool definitions itself (else strata adds them, above).
  bool describes_tools() const { return describes_tools_; }
  // Whether the template has a thinking switch whose reply common parses for reasoning
  // (common_chat_templates_support_enable_thinking): llama-server renders with enable_thinking
  // on for such a template unless told otherwise.
  bool supports_thinking() const { return supports_thinking_; }

 private:
  struct Impl;
  explicit ConversationTemplate(std::unique_ptr<Impl> impl, std::string source);
  Result<RenderedPrompt> Apply(const TemplateConversation& conversation,
                               bool add_generation_prompt) const;
  std::unique_ptr<Impl> impl_;
  std::string source_;
  bool describes_tools_ = true;
  bool supports_thinking_ = false;
};

// Parses the generated text of one reply as it grows (the template's tool-call syntax).
class ReplyParser {
 public:
  explicit ReplyParser(const RenderedPrompt& prompt, bool parse_tool_calls);
  ~ReplyParser();
  // Parses the whole text generated so far (`partial` until the last token) and returns what
  // changed since the previous call. Tool calls without an id get "call_<index>".
  std::vector<ReplyDelta> Update(const std::string& generated, bool partial);
  const ParsedReply& reply() const { return reply_; }

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  ParsedReply reply_;
};

}  // namespace strata
