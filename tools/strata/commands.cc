// commands.cc: the list of subcommands main() registers.
#include "commands.h"

namespace strata::cli {

std::vector<AddCommand> AllCommands() {
  return {
      AddCompileCommand, AddAdoptCommand,  AddAuditCommand,   AddAssembleCommand,
      AddChatCommand,    AddReplayCommand, AddExplainCommand,
  };
}

}  // namespace strata::cli
