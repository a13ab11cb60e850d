// cmd_adopt.cc: `strata adopt`.
#include <memory>

#include "commands.h"
#include "output.h"
#include "strata/compile.h"

namespace strata::cli {

void AddAdoptCommand(CLI::App& app, int* exit_code) {
  struct Args {
    std::string root = ".";
    bool force = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* sub =
      app.add_subcommand("adopt", "Write an AGENTS.md skeleton with the three cache band markers");
  sub->add_option("--root", args->root, "Repository root")->capture_default_str();
  sub->add_flag("--force", args->force,
                "On an existing AGENTS.md without markers, add the markers (nothing else changes)");
  sub->callback([args, exit_code] {
    auto report = Adopt(args->root, args->force);
    if (!report) {
      *exit_code = PrintError(report.error());
      return;
    }
    switch (report->outcome) {
      case AdoptOutcome::kCreated:
        std::printf("wrote %s with the head, config and tail markers\n", report->path.c_str());
        break;
      case AdoptOutcome::kLeftAlone:
        std::printf("left %s as it is (it exists; --force adds the band markers)\n",
                    report->path.c_str());
        break;
      case AdoptOutcome::kMarkersAdded:
        std::printf("added the band markers to %s; move text between them by volatility\n",
                    report->path.c_str());
        break;
      case AdoptOutcome::kAlreadyBanded:
        std::printf("left %s as it is (it already has band markers)\n", report->path.c_str());
        break;
    }
    *exit_code = 0;
  });
}

}  // namespace strata::cli
