// commands.h: the strata subcommands. Each Add*Command registers one CLI11 subcommand whose
// callback stores its exit status (0 ok, 1 a check failed, 2 usage or input error) in *exit_code.
// The command files only parse arguments, call the library and print.
#pragma once

#include <CLI/CLI.hpp>
#include <vector>

namespace strata::cli {

using AddCommand = void (*)(CLI::App& app, int* exit_code);

// Every subcommand, in the order `strata --help` lists them. One line per command in commands.cc.
std::vector<AddCommand> AllCommands();

void AddCompileCommand(CLI::App& app, int* exit_code);
void AddAuditCommand(CLI::App& app, int* exit_code);
void AddAdoptCommand(CLI::App& app, int* exit_code);
void AddAssembleCommand(CLI::App& app, int* exit_code);
void AddDiscoverCommand(CLI::App& app, int* exit_code);
void AddChatCommand(CLI::App& app, int* exit_code);     // cmd_chat.cc
void AddReplayCommand(CLI::App& app, int* exit_code);   // cmd_replay.cc
void AddExplainCommand(CLI::App& app, int* exit_code);  // cmd_explain.cc

}  // namespace strata::cli
