// cmd_record.cc: `strata record --upstream URL [--listen HOST:PORT] --out FILE`: a pass-through
// endpoint that records each model request a harness sends and the usage its provider reports
// (docs/record.md). Runs in strata-record (record_commands.cc), which links cpp-httplib.
#include <cstdio>
#include <string>

#include "commands.h"
#include "output.h"
#include "strata/record.h"

namespace strata::cli {
namespace {

struct RecordArgs {
  std::string upstream;
  std::string listen = "127.0.0.1:8787";
  std::string out;
};

// "HOST:PORT" (PORT 0: any free port) into the options.
Status ParseListen(const std::string& listen, RecordServerOptions* options) {
  size_t colon = listen.rfind(':');
  int port = -1;
  if (colon != std::string::npos && colon + 1 < listen.size() &&
      listen.find_first_not_of("0123456789", colon + 1) == std::string::npos &&
      listen.size() - colon - 1 <= 5) {
    port = std::stoi(listen.substr(colon + 1));
  }
  if (colon == 0 || port < 0 || port > 65535) {
    return MakeError(ErrorKind::kInvalidArgument,
                     "--listen '" + listen +
                         "' is not HOST:PORT (e.g. 127.0.0.1:8787; port 0 "
                         "picks a free one)");
  }
  options->listen_host = listen.substr(0, colon);
  options->listen_port = port;
  return {};
}

}  // namespace

void AddRecordCommand(CLI::App& app, int* exit_code) {
  auto args = std::make_shared<RecordArgs>();
  CLI::App* cmd = app.add_subcommand(
      "record", "Forward a harness's requests to its provider and record them (docs/record.md)");
  cmd->add_option("--upstream", args->upstream,
                  "Provider base URL, http:// or https:// (e.g. https://api.anthropic.com)")
      ->required();
  cmd->add_option("--listen", args->listen,
                  "HOST:PORT to listen on (default 127.0.0.1:8787; port 0: a free one)");
  cmd->add_option("--out", args->out, "Record file: one JSON line per model request (appended)")
      ->required();
  cmd->callback([args, exit_code] {
    RecordServerOptions options;
    options.upstream = args->upstream;
    options.out = args->out;
    if (auto parsed = ParseListen(args->listen, &options); !parsed) {
      *exit_code = PrintError(parsed.error());
      return;
    }
    options.on_listening = [&](int port) {
      std::printf("strata record: listening on http://%s:%d, forwarding to %s, recording to %s\n",
                  options.listen_host.c_str(), port, options.upstream.c_str(), options.out.c_str());
      std::fflush(stdout);
    };
    auto served = RunRecordServer(options);
    *exit_code = served ? 0 : PrintError(served.error());
  });
}

}  // namespace strata::cli
