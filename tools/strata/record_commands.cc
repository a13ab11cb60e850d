// record_commands.cc: the subcommand strata-record runs (`record`: it links cpp-httplib, which the
// core `strata` executable leaves out to keep its start-up static and small).
#include "commands.h"

namespace strata::cli {

std::vector<NamedCommand> AllCommands() { return {{"record", AddRecordCommand}}; }

std::vector<DelegatedCommand> DelegatedCommands() { return {}; }

// strata-record delegates nothing (DelegatedCommands is empty), so main() never calls this.
int ExecDelegate(int /*argc*/, char** /*argv*/, const char* /*executable*/) { return 2; }

}  // namespace strata::cli
