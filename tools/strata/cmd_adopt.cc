// cmd_adopt.cc: `strata adopt`.
#include <filesystem>
#include <memory>

#include "commands.h"
#include "output.h"
#include "strata/compile.h"

namespace strata::cli {

namespace {

// The files a client would still load beside its compiled file: moved aside, or named with the
// commands that do it.
void PrintLoadedBeside(const AdoptFromReport& report, bool moved) {
  for (const auto& f : report.files) {
    if (!f.loads_beside) continue;
    if (moved) {
      std::printf("moved %s to %s: its text reaches %s as %s once compiled\n", f.path.c_str(),
                  f.moved_to.c_str(), f.client_id.c_str(), f.target_path.c_str());
      continue;
    }
    const std::string to = AdoptedAsidePath(f.path);
    std::printf(
        "  %s still loads beside the compiled %s (%s would read its text twice): move it aside "
        "with `mkdir -p %s && mv %s %s` (what --remove-adopted does)\n",
        f.path.c_str(), f.target_path.c_str(), f.client_id.c_str(),
        std::filesystem::path(to).parent_path().c_str(), f.path.c_str(), to.c_str());
  }
}

int RunAdoptFrom(const std::string& root, const std::vector<std::string>& from, bool force,
                 bool remove_adopted) {
  auto report = AdoptFrom(root, from, force);
  if (!report) return PrintError(report.error());
  for (const auto& f : report->files) {
    if (f.skipped) {
      std::printf("skipped %s: it only names a sibling file (a checked-out link)\n",
                  f.path.c_str());
    } else {
      std::printf("merged %s (%s%s)\n", f.path.c_str(), f.client_id.c_str(),
                  f.scoped ? ", path-scoped: a rule source" : "");
    }
  }
  for (const auto& id : report->client_sections) {
    std::printf("text only %s had is its `<!-- strata:for %s -->` section\n", id.c_str(),
                id.c_str());
  }
  for (const auto& rule : report->rules) std::printf("wrote rule source %s\n", rule.c_str());
  PrintDiagnostics(report->diagnostics);
  std::printf("wrote %s%s; run `strata compile --force` to replace the adopted files\n",
              report->path.c_str(), report->wrote_config ? " and strata.toml" : "");
  if (remove_adopted) {
    if (auto moved = MoveAdoptedAside(root, &*report); !moved) return PrintError(moved.error());
  }
  PrintLoadedBeside(*report, remove_adopted);
  return 0;
}

}  // namespace

void AddAdoptCommand(CLI::App& app, int* exit_code) {
  struct Args {
    std::string root = ".";
    bool force = false;
    bool remove_adopted = false;
    std::vector<std::string> from;
  };
  auto args = std::make_shared<Args>();
  CLI::App* sub =
      app.add_subcommand("adopt", "Write an AGENTS.md skeleton with the three cache band markers");
  sub->add_option("--root", args->root, "Repository root")->capture_default_str();
  sub->add_flag("--force", args->force,
                "On an existing AGENTS.md without markers, add the markers (nothing else changes)");
  CLI::Option* from =
      sub->add_option("--from", args->from,
                      "Merge these existing client files (CLAUDE.md, .cursor/rules/*.mdc, "
                      "GEMINI.md, ...) into one banded source and path-scoped rule sources");
  sub->add_flag("--remove-adopted", args->remove_adopted,
                "With --from: move each merged file a client would still load beside its compiled "
                "file (.cursor/rules/base.mdc) to .strata/adopted/PATH.adopted, all or nothing")
      ->needs(from);
  sub->callback([args, exit_code] {
    if (!args->from.empty()) {
      *exit_code = RunAdoptFrom(args->root, args->from, args->force, args->remove_adopted);
      return;
    }
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
