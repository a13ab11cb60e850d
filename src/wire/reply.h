// reply.h (private): a model's reply as the wire codecs write it back (reply_writer.h): the whole
// reply parsed into text, reasoning and tool calls, and the steps of a streamed one. The local
// engine's parser (local/conversation_template.h) produces them; JSON is held as text because
// llama.cpp's `common` headers bring their own JSON library.
#pragma once

#include <string>
#include <vector>

namespace strata {

struct TemplateToolCall {
  std::string id;
  std::string name;
  std::string arguments;  // JSON text of the arguments object
};

// One step of a streamed reply: new content or reasoning text, or a new tool call / more of a
// tool call's arguments (tool_index >= 0).
struct ReplyDelta {
  std::string content;
  std::string reasoning;
  int tool_index = -1;
  std::string tool_id, tool_name, tool_arguments;
};

struct ParsedReply {
  std::string content;
  std::string reasoning;
  std::vector<TemplateToolCall> tool_calls;
};

}  // namespace strata
