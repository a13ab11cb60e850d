// claude_code_log.h: hand-written Claude Code session logs for the replay and explain tests, one
// JSON line per call (the members strata's reader uses, in our own words).
#pragma once

#include <algorithm>
#include <string>

#include "transcripts/redaction.h"

namespace strata::testing {

// Synthetic text of `bytes` bytes on one line (inside hand-written JSON strings).
inline std::string OneLine(size_t bytes, const std::string& seed) {
  std::string t = strata::SynthesizeText(bytes, seed);
  std::replace(t.begin(), t.end(), '\n', ' ');
  return t;
}

// One log line of `type` with its uuid, parent and time; `rest` holds the other members.
inline std::string ClaudeCodeLine(const std::string& type, const std::string& uuid,
                                  const std::string& parent, const std::string& time,
                                  const std::string& rest) {
  return "{\"type\":\"" + type + "\",\"uuid\":\"" + uuid +
         "\",\"parentUuid\":" + (parent.empty() ? "null" : "\"" + parent + "\"") +
         ",\"timestamp\":\"" + time + "\"," + rest + "}\n";
}

// A user message; `extra` (members ending in ',') goes before it.
inline std::string ClaudeCodeUser(const std::string& uuid, const std::string& parent,
                                  const std::string& time, const std::string& text,
                                  const std::string& extra = "") {
  return ClaudeCodeLine("user", uuid, parent, time,
                        extra + "\"message\":{\"role\":\"user\",\"content\":\"" + text + "\"}");
}

// An answer of request `request` with its recorded usage: input, cache read and cache write.
inline std::string ClaudeCodeAnswer(const std::string& uuid, const std::string& parent,
                                    const std::string& time, const std::string& request,
                                    const std::string& text, size_t in, size_t read, size_t write) {
  return ClaudeCodeLine(
      "assistant", uuid, parent, time,
      "\"requestId\":\"" + request +
          "\",\"message\":{\"model\":\"claude-sonnet-4-5\",\"content\":[{\"type\":"
          "\"text\",\"text\":\"" +
          text + "\"}],\"usage\":{\"input_tokens\":" + std::to_string(in) +
          ",\"cache_read_input_tokens\":" + std::to_string(read) +
          ",\"cache_creation_input_tokens\":" + std::to_string(write) + "}}");
}

// Two turns of 20 KB each, a compact_boundary, its summary ("The summary."), a third turn.
inline std::string ClaudeCodeCompactedLog() {
  const std::string big = OneLine(20000, "history");
  return ClaudeCodeUser("u1", "", "2026-11-29T08:00:00Z", big) +
         ClaudeCodeAnswer("a1", "u1", "2026-11-29T08:00:05Z", "r1", "one", 3, 0, 12000) +
         ClaudeCodeUser("u2", "a1", "2026-11-29T08:00:10Z", big + " again") +
         ClaudeCodeAnswer("a2", "u2", "2026-11-29T08:00:15Z", "r2", "two", 3, 12000, 6000) +
         ClaudeCodeLine("system", "c1", "", "2026-11-29T08:00:20Z",
                        "\"subtype\":\"compact_boundary\",\"content\":\"Conversation compacted\","
                        "\"compactMetadata\":{\"trigger\":\"auto\",\"preTokens\":18000}") +
         ClaudeCodeUser("s1", "c1", "2026-11-29T08:00:21Z", "The summary.",
                        "\"isCompactSummary\":true,") +
         ClaudeCodeUser("u3", "s1", "2026-11-29T08:00:22Z", "go on") +
         ClaudeCodeAnswer("a3", "u3", "2026-11-29T08:00:25Z", "r3", "three", 3, 2000, 40);
}

}  // namespace strata::testing
