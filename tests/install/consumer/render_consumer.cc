// render_consumer.cc: assembles one turn and renders it for Anthropic through the C++ API, with a
// tool whose schema is JSON text (no JSON library needed by the consumer).
#include <cstdio>
#include <string>

#include "strata/assemble.h"

int main() {
  strata::AssembleOptions options;
  auto session = strata::ContextSession::Create(options);
  if (!session) return 1;
  strata::ContextInputs inputs;
  inputs.model = "claude-sonnet-4-5";
  inputs.persona = "You are a careful coding agent.";
  inputs.instructions = {{"AGENTS.md", "# Project\n\nRun make test.\n"}};
  inputs.tools = {{"read", "Reads a file.", R"({"type": "object", "required": ["path"]})"}};
  if (!session->BeginTurn(inputs, "hello")) return 1;
  auto request = session->Render(strata::Provider::kAnthropic, inputs, {});
  if (!request) {
    std::fprintf(stderr, "%s\n", strata::FormatError(request.error()).c_str());
    return 1;
  }
  std::string bytes = request->request.Flatten();
  bool canonical =
      bytes.find(R"("input_schema":{"required":["path"],"type":"object"})") != std::string::npos;
  std::printf("bytes: %zu\nbreakpoints: %zu\ncanonical schema: %s\n", bytes.size(),
              request->request.breakpoints.size(), canonical ? "yes" : "no");
  return 0;
}
