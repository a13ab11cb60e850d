// local_commands.cc: the subcommands strata-local runs (those that need llama.cpp: local
// sessions, and the llama.cpp vocabulary tokenizers replay and explain count with).
#include "commands.h"
#include "serve_flags.h"

namespace strata::cli {

std::vector<NamedCommand> AllCommands() {
  return {{"replay", AddReplayCommand},
          {"explain", AddExplainCommand},
          {"chat", AddChatCommand},
          {"serve", AddServeCommand, RewriteServeArgs}};
}

std::vector<DelegatedCommand> DelegatedCommands() { return {}; }

// strata-local delegates nothing (DelegatedCommands is empty), so main() never calls this.
int ExecDelegate(int /*argc*/, char** /*argv*/, const char* /*executable*/) { return 2; }

}  // namespace strata::cli
