// completion.h: the bash, zsh and fish completion scripts, generated from the CLI definition
// itself (every subcommand's CLI11 options), so a new option is completed without anyone editing a
// script. `strata completion SHELL` prints one; the build writes all three (cmake/ManPages.cmake).
// The commands another executable runs (strata-local, strata-record) are asked for their options
// with the hidden `__options` argument, which every executable answers from its own definition.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace strata::cli {

// One subcommand as completion sees it.
struct CommandSpec {
  std::string name;
  std::string description;
  std::vector<std::string> flags;   // long options that take no value, e.g. "--json"
  std::vector<std::string> valued;  // long options that take a value, e.g. "--root"
};

// The subcommands of `app` (already added), hidden options (group "") left out.
std::vector<CommandSpec> SpecsOf(CLI::App& app);

// The `__options` answer: one line per command, "NAME\tDESCRIPTION\t--flag --valued= ...".
std::string FormatSpecs(const std::vector<CommandSpec>& specs);
// The inverse of FormatSpecs; lines that do not parse are skipped.
std::vector<CommandSpec> ParseSpecs(std::string_view text);

// The completion script for `shell` ("bash", "zsh" or "fish"): subcommands, each command's
// options, target ids after --target and client names after --client, directories after
// --root/--dir/--allow-dir, files after other valued options. "" for another shell.
std::string CompletionScript(std::string_view shell, const std::vector<CommandSpec>& specs);

void AddCompletionCommand(CLI::App& app, int* exit_code);  // strata completion SHELL

}  // namespace strata::cli
