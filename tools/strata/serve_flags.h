// serve_flags.h: llama-server's command line for `strata serve`. People swap llama-server for
// strata serve keeping their command line, so its spellings are taken with the same meaning
// (docs/serve.md has the table), and every other llama-server option is refused by name rather
// than passed over or misread (CLI11 would read `-ngl 99` as the cluster -n -g -l).
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace strata::cli {

// Rewrites `args` (the arguments after `serve`) for CLI11: llama-server's multi-letter short
// options (-np, -ngl, -tb, -fa, -ub, -ctk, -ctv, -lm) become the long names `serve` registers.
// Returns "" on success, else the error to print: "not supported by strata serve: <flag> ..." for
// an option of the pinned llama-server (tools/server's options in common/arg.cpp) that `serve`
// does not register. The value after an option `serve` registers is passed verbatim (so `-n -1`
// is a value, not a flag).
std::string RewriteServeArgs(const CLI::App& serve, std::vector<std::string>* args);

}  // namespace strata::cli
