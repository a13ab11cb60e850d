// main.cc: the strata command line (and strata-local's: commands.h). Parses the subcommand and
// hands over to it; a delegated command is handed to strata-local before anything is parsed.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include "commands.h"
#include "completion.h"

namespace {

// Parses and runs; `exit_code` is the variable the commands' callbacks set.
int Parse(CLI::App& app, int argc, char** argv, const int& exit_code) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  return exit_code;
}

int Run(int argc, char** argv) {
  const std::vector<strata::cli::DelegatedCommand> delegated = strata::cli::DelegatedCommands();
  for (const auto& command : delegated) {
    if (argc > 1 && command.name == std::string_view(argv[1])) {
      return strata::cli::ExecDelegate(argc, argv, command.executable);
    }
  }
  CLI::App app{"strata: cache-stable context delivery for LLM agents", "strata"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "strata 0.1.0");
  int exit_code = 0;
  const std::vector<strata::cli::NamedCommand> commands = strata::cli::AllCommands();
  // Hidden: this executable's commands and options, for `strata completion` (completion.h).
  if (argc == 2 && std::string_view(argv[1]) == "__options") {
    for (const auto& command : commands) command.add(app, &exit_code);
    std::fputs(strata::cli::FormatSpecs(strata::cli::SpecsOf(app)).c_str(), stdout);
    return 0;
  }
  // `strata <command> ...` builds that command alone; anything else (help, an unknown name, a
  // flag first) builds them all, for the listing and the error.
  for (const auto& command : commands) {
    if (argc > 1 && command.name == std::string_view(argv[1])) {
      command.add(app, &exit_code);
      if (command.rewrite == nullptr) return Parse(app, argc, argv, exit_code);
      std::vector<std::string> args(argv + 2, argv + argc);
      const std::string error = command.rewrite(*app.get_subcommand(command.name), &args);
      if (!error.empty()) {
        std::fprintf(stderr, "strata %s: error: %s\n", command.name, error.c_str());
        return 2;
      }
      std::vector<char*> rewritten{argv[0], argv[1]};
      for (std::string& a : args) rewritten.push_back(a.data());
      return Parse(app, static_cast<int>(rewritten.size()), rewritten.data(), exit_code);
    }
  }
  for (const auto& command : commands) command.add(app, &exit_code);
  for (const auto& command : delegated) app.add_subcommand(command.name, command.description);
  if (argc > 1 && std::string_view(argv[1]) == "help") {
    std::printf("%s", app.help().c_str());
    return 0;
  }
  if (argc > 1 && argv[1][0] != '-') {
    bool known = false;
    std::string names;
    for (const CLI::App* sub : app.get_subcommands({})) {
      known = known || sub->get_name() == argv[1];
      names += (names.empty() ? "" : ", ") + sub->get_name();
    }
    if (!known) {
      std::fprintf(stderr,
                   "strata: error: unknown command '%s'; commands: %s (see strata --help)\n",
                   argv[1], names.c_str());
      return 2;
    }
  }
  return Parse(app, argc, argv, exit_code);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return Run(argc, argv);
  } catch (const std::exception& e) {
    // The library returns errors as values; this is reached only on allocation failure and the
    // like.
    std::fprintf(stderr, "strata: error: %s\n", e.what());
    return 2;
  } catch (...) {
    std::fprintf(stderr, "strata: error: unexpected failure\n");
    return 2;
  }
}
