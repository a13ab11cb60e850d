// loader_fuzz.cc: builds a small project tree from the input (instruction files holding imports,
// code, comments, BOMs, CRLF, tag characters; symlinks, loops, a file outside the root) in a
// scratch directory, then runs Discover, DiscoverAll, the tracker and ExpandImports on it. Finds
// crashes, hangs (import cycles through links) and broken invariants (a file delivered twice).
#include <fuzzer/FuzzedDataProvider.h>
#include <unistd.h>

#include <array>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "scratch_dir.h"
#include "strata/discover.h"

namespace fs = std::filesystem;

namespace {

constexpr std::array<const char*, 14> kPaths = {"proj/AGENTS.md",
                                                "proj/CLAUDE.md",
                                                "proj/GEMINI.md",
                                                "proj/AGENTS.local.md",
                                                "proj/a/AGENTS.md",
                                                "proj/a/CLAUDE.md",
                                                "proj/a/b/AGENTS.md",
                                                "proj/a/b/x.md",
                                                "proj/x.md",
                                                "proj/.claude/CLAUDE.md",
                                                "proj/a/b/c/AGENTS.md",
                                                "outside.md",
                                                "proj/a/b/c/y.md",
                                                "home/h.md"};

constexpr std::array<const char*, 22> kPieces = {"@x.md",
                                                 "@a/b/x.md",
                                                 "@../AGENTS.md",
                                                 "@CLAUDE.md",
                                                 "@../../outside.md",
                                                 "@~/h.md",
                                                 "```\n",
                                                 "`",
                                                 "<!--",
                                                 "-->",
                                                 "\r\n",
                                                 "\xEF\xBB\xBF",
                                                 "\xF3\xA0\x81\x81",
                                                 "    ",
                                                 "\n",
                                                 "@AGENTS.md",
                                                 "@./y.md",
                                                 "@c/y.md",
                                                 "me@x.com",
                                                 "@scope/pkg",
                                                 "\xE2\x82\xAC",
                                                 "AGENTS.md"};

fs::path Scratch() { return strata::fuzz::ScratchDir(); }

void Build(FuzzedDataProvider& in, const fs::path& root) {
  std::error_code ec;
  fs::remove_all(root, ec);
  fs::create_directories(root / "proj/.git");
  fs::create_directories(root / "proj/a/b/c");
  fs::create_directories(root / "home");
  int records = in.ConsumeIntegralInRange(0, 12);
  for (int r = 0; r < records && in.remaining_bytes() > 0; ++r) {
    fs::path path = root / kPaths[in.ConsumeIntegralInRange<size_t>(0, kPaths.size() - 1)];
    fs::create_directories(path.parent_path(), ec);
    fs::remove(path, ec);
    switch (in.ConsumeIntegralInRange(0, 3)) {
      case 0: {  // a symlink to another candidate (maybe itself, maybe a loop)
        fs::path target = root / kPaths[in.ConsumeIntegralInRange<size_t>(0, kPaths.size() - 1)];
        fs::create_symlink(target, path, ec);
        break;
      }
      case 1:
        fs::create_directories(path, ec);
        break;
      default: {
        std::string text;
        int pieces = in.ConsumeIntegralInRange(0, 16);
        for (int p = 0; p < pieces; ++p) {
          if (in.ConsumeBool()) {
            text += kPieces[in.ConsumeIntegralInRange<size_t>(0, kPieces.size() - 1)];
          } else {
            text += in.ConsumeRandomLengthString(24);
          }
          text += in.ConsumeBool() ? " " : "\n";
        }
        std::ofstream(path, std::ios::binary) << text;
      }
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  fs::path root = Scratch();
  Build(in, root);
  strata::DiscoverOptions options;
  options.working_dir = root / "proj/a/b";
  options.file_names = {"AGENTS.md", "CLAUDE.md", "GEMINI.md", ".claude/CLAUDE.md"};
  options.imports.home_dir = root / "home";
  options.imports.max_depth = in.ConsumeIntegralInRange(0, 6);
  options.budget.per_file_bytes = in.ConsumeIntegralInRange<size_t>(0, 64);
  options.budget.total_bytes = in.ConsumeIntegralInRange<size_t>(0, 256);
  if (in.ConsumeBool()) options.same_directory = strata::SameDirectoryRule::kFirstOnly;

  strata::Result<strata::Discovery> d = strata::DiscoverAll(options);
  if (!d) return 0;
  std::set<fs::path> seen;
  for (const strata::Source& s : d->sources) {
    std::error_code ec;
    fs::path canonical = fs::canonical(s.path, ec);
    if (!ec && !seen.insert(canonical).second) std::abort();  // delivered twice
    if (!ec && s.origin == strata::SourceOrigin::kImport &&
        !canonical.string().starts_with((root / "proj/").string()) &&
        !canonical.string().starts_with((root / "home/").string())) {
      std::abort();  // an import escaped the project root
    }
  }
  strata::Result<strata::Discovery> first = strata::Discover(options);
  if (first) {
    strata::SubdirectoryTracker tracker(options, *first);
    tracker.Touch("c/y.md");
    tracker.Touch(root / "proj/a");
    tracker.Touch(root / "outside.md");
  }
  (void)strata::ExpandImports(root / "proj/AGENTS.md", options);
  return 0;
}
