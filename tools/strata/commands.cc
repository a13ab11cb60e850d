// commands.cc: the subcommands `strata` runs itself, and those it hands to strata-local.
#include "commands.h"

#include "completion.h"

namespace strata::cli {

std::vector<NamedCommand> AllCommands() {
  return {
      {"compile", AddCompileCommand},       {"adopt", AddAdoptCommand},
      {"audit", AddAuditCommand},           {"discover", AddDiscoverCommand},
      {"assemble", AddAssembleCommand},     {"mcp", AddMcpCommand},
      {"completion", AddCompletionCommand},
      {"usage", AddUsageCommand},
  };
}

std::vector<DelegatedCommand> DelegatedCommands() {
  return {
      {"replay", "Replay a session transcript through a layout and a cache model (docs/replay.md)"},
      {"explain", "Explain why request B misses the cache request A filled (docs/explain.md)"},
      {"chat", "Chat with a local GGUF model, reusing KV checkpoints of the prompt prefix"},
      {"record", "Forward a harness's requests to its provider and record them (docs/record.md)",
       "strata-record"},
      {"serve",
       "Serve a GGUF model over the OpenAI and Anthropic APIs, prefixes restored from KV "
       "checkpoints (docs/serve.md)"},
  };
}

}  // namespace strata::cli
