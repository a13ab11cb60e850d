// render_consumer.cc: assembles one turn and renders it for Anthropic through the C++ API.
#include <cstdio>

#include "strata/assemble.h"

int main() {
  strata::AssembleOptions options;
  auto session = strata::ContextSession::Create(options);
  if (!session) return 1;
  strata::ContextInputs inputs;
  inputs.model = "claude-sonnet-4-5";
  inputs.persona = "You are a careful coding agent.";
  inputs.instructions = {{"AGENTS.md", "# Project\n\nRun make test.\n"}};
  if (!session->BeginTurn(inputs, "hello")) return 1;
  auto request = session->Render(strata::Provider::kAnthropic, inputs, {});
  if (!request) {
    std::fprintf(stderr, "%s\n", strata::FormatError(request.error()).c_str());
    return 1;
  }
  std::printf("bytes: %zu\nbreakpoints: %zu\n", request->request.Flatten().size(),
              request->request.breakpoints.size());
  return 0;
}
