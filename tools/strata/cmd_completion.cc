// cmd_completion.cc: `strata completion SHELL` (completion.h): this executable's commands and
// the delegated executables' (asked with `__options`).
#include <cstdio>
#include <memory>
#include <set>

#include "commands.h"
#include "completion.h"

namespace strata::cli {

namespace {

// This executable's commands and, asked with `__options`, the delegated executables'; a
// delegated command whose executable is not installed is completed by name only (a note says so).
std::vector<CommandSpec> AllSpecs() {
  CLI::App app;
  int ignored = 0;
  for (const auto& command : AllCommands()) command.add(app, &ignored);
  std::vector<CommandSpec> specs = SpecsOf(app);
  std::set<std::string> asked;
  std::vector<CommandSpec> delegated;
  for (const auto& command : DelegatedCommands()) {
    if (asked.insert(command.executable).second) {
      Result<DelegateRun> run = RunDelegate(command.executable, {"__options"});
      if (run && run->exit_code == 0) {
        for (auto& spec : ParseSpecs(run->out)) delegated.push_back(std::move(spec));
      } else {
        std::fprintf(stderr,
                     "strata: %s is not installed: its commands are completed by name only\n",
                     command.executable);
      }
    }
    bool found = false;
    for (const auto& spec : delegated) {
      if (spec.name == command.name) {
        specs.push_back(spec);
        found = true;
      }
    }
    if (!found) specs.push_back({command.name, command.description, {}, {}});
  }
  return specs;
}

}  // namespace

void AddCompletionCommand(CLI::App& app, int* exit_code) {
  auto shell = std::make_shared<std::string>();
  CLI::App* sub = app.add_subcommand(
      "completion", "Print the bash, zsh or fish completion script for every command's options");
  sub->add_option("shell", *shell, "bash, zsh or fish")->required();
  sub->callback([shell, exit_code] {
    std::string script = CompletionScript(*shell, AllSpecs());
    if (script.empty()) {
      std::fprintf(stderr, "strata: error: unknown shell '%s'; use bash, zsh or fish\n",
                   shell->c_str());
      *exit_code = 2;
      return;
    }
    std::fputs(script.c_str(), stdout);
    *exit_code = 0;
  });
}

}  // namespace strata::cli
