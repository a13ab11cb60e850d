// session_fixture.h: inputs and helpers shared by the assembler tests: a small but complete
// context (persona, rules, tools from two servers, AGENTS.md sources, skills), a clock that ticks
// per turn, and byte helpers for the prefix checks.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "strata/assemble.h"

namespace strata::testing {

inline ToolDefinition Tool(const std::string& name, const std::string& schema_json) {
  return ToolDefinition{name, "The " + name + " tool.", schema_json};
}

// Server "fs" registers read and write; server "git" registers status and diff.
inline std::vector<ToolDefinition> FsTools() {
  return {Tool("read", R"({"type":"object","properties":{"path":{"type":"string"}}})"),
          Tool("write", R"({"type":"object","properties":{"path":{"type":"string"},
                            "text":{"type":"string"}},"required":["path","text"]})")};
}
inline std::vector<ToolDefinition> GitTools() {
  return {Tool("status", R"({"type":"object","properties":{}})"),
          Tool("diff", R"({"type":"object","properties":{"staged":{"type":"boolean"}}})")};
}

inline ContextInputs BaseInputs() {
  ContextInputs in;
  in.model = "claude-sonnet-4-5";
  in.persona = "You are a careful coding agent.";
  in.rules = {"Use the tools to read before you write.", "Never push to main."};
  in.tools = FsTools();
  for (auto& t : GitTools()) in.tools.push_back(t);
  in.cwd = "/work/project";
  in.instructions = {{"AGENTS.md", "# Project\n\nRun `make test` before committing.\n"},
                     {"lib/AGENTS.md", "# Lib\n\nKeep the API small.\n"}};
  in.skills = {{"pdf", "Read and fill PDF forms", "skills/pdf/SKILL.md"}};
  in.notes = "The user prefers small commits.";
  return in;
}

// 2026-11-29T10:MM:SSZ for `seconds` past 10:00:00 (seconds < 3600).
inline std::string Clock(int seconds) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "2026-11-29T10:%02d:%02dZ", seconds / 60, seconds % 60);
  return buffer;
}

inline TurnInputs At(const std::string& now) {
  TurnInputs t;
  t.now = now;
  return t;
}

inline const LayerSpan* FindSpan(const LayerMap& map, const std::string& layer) {
  for (const auto& s : map) {
    if (s.layer == layer) return &s;
  }
  return nullptr;
}

inline size_t CommonPrefix(const std::string& a, const std::string& b) {
  size_t n = 0;
  while (n < a.size() && n < b.size() && a[n] == b[n]) ++n;
  return n;
}

inline size_t Count(const std::string& haystack, const std::string& needle) {
  size_t n = 0;
  for (size_t at = haystack.find(needle); at != std::string::npos;
       at = haystack.find(needle, at + 1)) {
    ++n;
  }
  return n;
}

inline Message Assistant(const std::string& text, std::vector<ToolCall> calls = {}) {
  Message m;
  m.role = Role::kAssistant;
  m.text = text;
  m.tool_calls = std::move(calls);
  return m;
}

inline Message ToolResult(const std::string& id, const std::string& text) {
  Message m;
  m.role = Role::kToolResult;
  m.tool_call_id = id;
  m.text = text;
  return m;
}

inline const Provider kAllProviders[] = {Provider::kAnthropic, Provider::kOpenAiChat,
                                         Provider::kOpenAiResponses, Provider::kChatTemplate};

}  // namespace strata::testing
