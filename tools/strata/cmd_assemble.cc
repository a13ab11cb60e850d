// cmd_assemble.cc: `strata assemble`: reads a session file, assembles the request the harness
// would send for its new user message, and prints the request (or its layer map).
#include <cstdio>
#include <filesystem>

#include "commands.h"
#include "output.h"
#include "strata/assemble.h"
#include "strata/replay.h"

namespace strata::cli {

void AddAssembleCommand(CLI::App& app, int* exit_code) {
  struct Args {
    std::string session;
    std::string project;
    std::string provider = "anthropic";
    bool layers = false;
    bool with_layers = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand(
      "assemble", "Assemble one turn's request from a session file (format: docs/assemble.md)");
  cmd->add_option("--session", args->session, "Session file (JSON; - reads standard input)")
      ->required();
  cmd->add_option("--project", args->project,
                  "Project directory whose instruction files (AGENTS.md) join the context");
  cmd->add_option("--provider", args->provider, "One of " + ProviderNameList());
  cmd->add_flag("--layers", args->layers,
                "Print the layer map (layer, volatility, byte range) instead of the request");
  cmd->add_flag("--with-layers", args->with_layers,
                "Print {request, layers, breakpoints} (the request as a JSON string), for explain");
  cmd->callback([args, exit_code] {
    auto provider = ParseProvider(args->provider);
    if (!provider) {
      *exit_code = PrintError(provider.error());
      return;
    }
    auto file = LoadSessionFile(args->session);
    if (!file) {
      *exit_code = PrintError(file.error());
      return;
    }
    // An error about the conversation the session file holds names that file.
    auto session_error = [&](Error error) {
      if (error.where.path.empty()) error.where.path = args->session;
      return PrintError(error);
    };
    if (!args->project.empty()) {
      std::vector<Diagnostic> found;
      auto sources = LoadProjectInstructions(args->project, &found);
      if (!sources) {
        *exit_code = PrintError(sources.error());
        return;
      }
      // Warnings and errors print (paths relative to the current directory); an error means an
      // instruction file was refused, and a request without it is not what the user asked for.
      std::error_code ec;
      std::filesystem::path base = std::filesystem::canonical(args->project, ec);
      bool refused = false;
      for (const Diagnostic& d : found) {
        if (d.severity == Severity::kNote) continue;
        PrintDiagnostic(WithPathFromCwd(d, base));
        refused = refused || d.severity == Severity::kError;
      }
      if (refused) {
        PrintError({ErrorKind::kInvalidArgument,
                    "an instruction file of the project was refused (above); fix or remove it",
                    {args->project}});
        *exit_code = 2;
        return;
      }
      // Project sources first: the file's own sources are more specific.
      sources->insert(sources->end(), file->inputs.instructions.begin(),
                      file->inputs.instructions.end());
      file->inputs.instructions = std::move(*sources);
    }
    auto session = ContextSession::Create(file->options, file->history);
    if (!session) {
      *exit_code = session_error(session.error());
      return;
    }
    if (!file->user.empty()) {
      if (auto s = session->BeginTurn(file->inputs, file->user); !s) {
        *exit_code = session_error(s.error());
        return;
      }
    }
    auto request = session->Render(*provider, file->inputs, file->turn);
    if (!request) {
      *exit_code = session_error(request.error());
      return;
    }
    PrintDiagnostics(request->diagnostics);
    if (args->with_layers) {
      ExplainInput out;
      out.bytes = request->request.Flatten();
      out.layers = request->request.layers;
      out.breakpoints = request->request.breakpoints;
      std::fputs(FormatExplainInput(out).c_str(), stdout);
    } else if (args->layers) {
      std::fputs(FormatLayerMap(request->request.layers).c_str(), stdout);
    } else {
      for (auto segment : request->request.segments) {
        std::fwrite(segment.data(), 1, segment.size(), stdout);
      }
      std::fputs("\n", stdout);
    }
    *exit_code = 0;
  });
}

}  // namespace strata::cli
