// commands.h: the strata subcommands. Each Add*Command registers one CLI11 subcommand whose
// callback stores its exit status (0 ok, 1 a check failed, 2 usage or input error) in *exit_code.
// The command files only parse arguments, call the library and print.
//
// Two executables share main.cc: `strata` (commands.cc: the commands of the core library) and
// `strata-local` (local_commands.cc: the commands that need llama.cpp). `strata` lists the latter
// as delegated commands and hands them over by exec (delegate.cc), so its own start-up never
// loads or initialises llama.cpp.
#pragma once

#include <CLI/CLI.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "strata/status.h"

namespace strata::cli {

using AddCommand = void (*)(CLI::App& app, int* exit_code);
// Rewrites a command's arguments (those after its name) before CLI11 parses them; returns "" or
// the error to print (exit 2).
using RewriteArgs = std::string (*)(const CLI::App& command, std::vector<std::string>* args);

// A subcommand by name, so a run of one command builds only that command's options (start-up
// time: CLI11 builds every option of every command it is given).
struct NamedCommand {
  const char* name;  // as the Add function names its subcommand
  AddCommand add;
  RewriteArgs rewrite = nullptr;  // serve: llama-server's spellings (serve_flags.h)
};

// Every subcommand this executable runs itself, in the order `strata --help` lists them. One line
// per command in commands.cc (strata) or local_commands.cc (strata-local).
std::vector<NamedCommand> AllCommands();

// A command this executable hands to another (strata-local, strata-record): listed in --help,
// run by ExecDelegate.
struct DelegatedCommand {
  const char* name;
  const char* description;
  const char* executable = "strata-local";
};
// Empty in strata-local.
std::vector<DelegatedCommand> DelegatedCommands();

// Replaces this process with `executable` (beside this executable, else
// ../libexec/strata/<executable>), passing argv[1..] on. Returns only on failure: prints what is
// missing and what to do, and returns 2.
int ExecDelegate(int argc, char** argv, const char* executable);

// $HOME ("" when unset) and Codex's config directory ($CODEX_HOME, else ~/.codex): where the
// client profiles read global files and client settings (cmd_discover.cc).
std::filesystem::path HomeDir();
std::filesystem::path CodexHome();

// What a sibling executable printed on stdout, and how it exited (its stderr passes through).
struct DelegateRun {
  int exit_code = 0;
  std::string out;
};

// Runs `executable` (found as ExecDelegate finds it) with `args`, stdin from /dev/null, and waits.
// Errors: kNotFound when it is not installed; kIo when it cannot be started.
Result<DelegateRun> RunDelegate(const char* executable, const std::vector<std::string>& args);

void AddCompileCommand(CLI::App& app, int* exit_code);
void AddAuditCommand(CLI::App& app, int* exit_code);
void AddAdoptCommand(CLI::App& app, int* exit_code);
void AddAssembleCommand(CLI::App& app, int* exit_code);
void AddDiscoverCommand(CLI::App& app, int* exit_code);
void AddMcpCommand(CLI::App& app, int* exit_code);      // cmd_mcp.cc
void AddUsageCommand(CLI::App& app, int* exit_code);    // cmd_usage.cc
void AddChatCommand(CLI::App& app, int* exit_code);     // cmd_chat.cc, strata-local
void AddReplayCommand(CLI::App& app, int* exit_code);   // cmd_replay.cc, strata-local
void AddExplainCommand(CLI::App& app, int* exit_code);  // cmd_explain.cc, strata-local
void AddRecordCommand(CLI::App& app, int* exit_code);   // cmd_record.cc, strata-record
void AddServeCommand(CLI::App& app, int* exit_code);    // cmd_serve.cc, strata-local

}  // namespace strata::cli
