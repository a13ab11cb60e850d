// commands.cc: the list of subcommands main() registers.
#include "commands.h"

namespace strata::cli {

std::vector<AddCommand> AllCommands() {
  return {
      AddCompileCommand,  AddAdoptCommand,  AddAuditCommand,   AddDiscoverCommand,
      AddAssembleCommand, AddReplayCommand, AddExplainCommand, AddChatCommand,
  };
}

}  // namespace strata::cli
