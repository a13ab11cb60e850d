// Every real instruction file of the test corpus (instructions/) compiled as an AGENTS.md source.
#include <gtest/gtest.h>

#include <filesystem>

#include "compile/compiled_source.h"
#include "compile/render_target.h"
#include "stability/stability.h"
#include "strata/compile.h"
#include "support/test_support.h"

namespace strata {
namespace {

namespace fs = std::filesystem;

TEST(CorpusCompileTest, EveryInstructionFileCompilesTwiceToIdenticalBytes) {
  auto corpus = testing::CorpusDir();
  if (!corpus) GTEST_SKIP() << "../shared/corpus is absent";
  size_t compiled = 0;
  for (const auto& entry : fs::recursive_directory_iterator(*corpus / "instructions")) {
    if (!entry.is_regular_file() || entry.is_symlink()) continue;
    std::string bytes = testing::ReadAll(entry.path());
    testing::TempDir dir;
    dir.Write("AGENTS.md", bytes);
    CompileOptions options;
    options.root = dir.path();
    auto first = Compile(options);
    ASSERT_TRUE(first) << entry.path() << ": " << FormatError(first.error());
    for (const auto& d : first->diagnostics) {
      // Documented diagnostics only: the unmarked warning, a named target's size limit, and the
      // import cycle of an import-only CLAUDE.md (`@AGENTS.md`) compiled as AGENTS.md itself.
      // Issue 12 adds the note that a source's frontmatter is not copied (rules.mdc); issue 23
      // the part of a source a client that reads it itself never sees (client-limit).
      // With every target, Crush and Augment read AGENTS.md and the written CLAUDE.md both
      // (duplicate-load).
      EXPECT_TRUE(d.kind == "unmarked-source" || d.kind == "over-limit" ||
                  d.kind == "import-cycle" || d.kind == "source-frontmatter" ||
                  d.kind == "client-limit" || d.kind == "duplicate-load")
          << FormatDiagnostic(d);
      if (d.kind == "over-limit") EXPECT_NE(d.message.find("windsurf"), std::string::npos);
    }
    if (!first->ok) {
      // Over a size limit: that target was not written (issue 12: the others were). Compile
      // again without it: the others are then unchanged.
      options.targets.clear();
      for (const auto& t : first->targets) {
        if (t.status != TargetStatus::kOverLimit) options.targets.push_back(t.id);
      }
      first = Compile(options);
      ASSERT_TRUE(first && first->ok) << entry.path();
    }
    std::vector<std::string> outputs;
    for (const auto& t : first->targets) {
      if (t.status == TargetStatus::kWritten || t.status == TargetStatus::kUnchanged)
        outputs.push_back(testing::ReadAll(dir.path() / t.path));
    }
    auto second = Compile(options);
    ASSERT_TRUE(second);
    size_t i = 0;
    for (const auto& t : second->targets) {
      if (t.status == TargetStatus::kServedBySource) continue;
      EXPECT_EQ(t.status, TargetStatus::kUnchanged) << entry.path() << " " << t.id;
      EXPECT_EQ(testing::ReadAll(dir.path() / t.path), outputs[i++]);
    }
    EXPECT_TRUE(VerifyRenderTwice(second->compiled->selected, second->compiled->banded, "AGENTS.md",
                                  RenderTarget)
                    .empty());
    ++compiled;
  }
  EXPECT_GE(compiled, 15u);
}

}  // namespace
}  // namespace strata
