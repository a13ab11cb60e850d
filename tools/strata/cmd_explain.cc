// cmd_explain.cc: placeholder replaced below.
#include "commands.h"
namespace strata::cli {
void AddExplainCommand(CLI::App&, int*) {}
}  // namespace strata::cli
