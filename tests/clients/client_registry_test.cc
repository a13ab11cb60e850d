// client_registry_test.cc: the client registry (strata/discover.h): Claude Code's billing block in
// both forms (2.1.328's per-session suffix; the cch of 2.1.36 .. 2.1.17x), written by hand from
// the captures and the field's reports; text that only looks like the block stays prompt text;
// the captured 2.1.328 requests carry the per-session form.
#include "strata/discover.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "io/file_io.h"
#include "support/test_support.h"

namespace strata {
namespace {

TEST(ClientRegistry, NamesRoundTripInTheirOrder) {
  EXPECT_STREQ(ClientName(Client::kClaudeCode), "claude-code");
  EXPECT_EQ(ClientFromName("opencode"), Client::kOpencode);
  EXPECT_EQ(ClientFromName("Claude"), std::nullopt);
  EXPECT_EQ(AllClients().size(), 7u);
  EXPECT_EQ(ClientNameList(), "claude-code, codex, gemini-cli, opencode, goose, copilot, cursor");
}

TEST(ClientRegistry, EveryEntryNamesItsSourceAndWhere) {
  ASSERT_FALSE(VaryingTextRegistry().empty());
  for (const VaryingText& v : VaryingTextRegistry()) {
    EXPECT_FALSE(v.source.empty()) << v.id;
    EXPECT_FALSE(v.where.empty()) << v.id;
    EXPECT_FALSE(v.first_version.empty()) << v.id;
  }
}

TEST(ClientRegistry, BillingBlockWithoutCchVariesPerSession) {
  // Claude Code 2.1.328: no cch; the 3 hex digits follow the session's first prompt.
  auto h =
      ParseBillingHeader("x-anthropic-billing-header: cc_version=2.1.328.ea9; cc_entrypoint=cli;");
  ASSERT_TRUE(h);
  EXPECT_EQ(h->version, "2.1.328");
  EXPECT_EQ(h->suffix, "ea9");
  EXPECT_EQ(h->entrypoint, "cli");
  EXPECT_FALSE(h->cch);
  EXPECT_EQ(h->length, 70u);
  ASSERT_NE(h->entry, nullptr);
  EXPECT_EQ(h->entry->id, "billing-header");
  EXPECT_EQ(h->entry->varies, Variation::kPerSession);
  EXPECT_EQ(h->entry->client, Client::kClaudeCode);
}

TEST(ClientRegistry, BillingBlockWithCchVariesPerRequest) {
  // The form of anthropics/claude-code#68900 (2.1.177) and vllm-mlx#277 (2.1.100).
  auto h = ParseBillingHeader(
      "x-anthropic-billing-header: cc_version=2.1.177.01c; cc_entrypoint=sdk-cli; cch=36ee5;");
  ASSERT_TRUE(h);
  EXPECT_EQ(h->version, "2.1.177");
  EXPECT_EQ(h->entrypoint, "sdk-cli");
  EXPECT_EQ(h->cch, "36ee5");
  ASSERT_NE(h->entry, nullptr);
  EXPECT_EQ(h->entry->id, "billing-header-cch");
  EXPECT_EQ(h->entry->varies, Variation::kPerRequest);
  EXPECT_EQ(h->entry->last_version, "2.1.177");
}

TEST(ClientRegistry, TheBlockLineIsLeftOutAndTheRestKept) {
  // The block as the first line of a string system (vllm-mlx#277's form).
  const std::string text =
      "x-anthropic-billing-header: cc_version=2.1.100.7b4; cc_entrypoint=cli; cch=eb6c6;\n"
      "You are Claude Code.";
  ClientTextResult r = LeaveOutVaryingText(text);
  EXPECT_EQ(r.text, "You are Claude Code.");
  ASSERT_NE(r.left_out, nullptr);
  EXPECT_EQ(r.left_out->id, "billing-header-cch");
  // A block alone leaves nothing.
  r = LeaveOutVaryingText(
      "x-anthropic-billing-header: cc_version=2.1.328.ccf; cc_entrypoint=sdk-cli;");
  EXPECT_EQ(r.text, "");
  EXPECT_NE(r.left_out, nullptr);
  // --keep-client-text keeps it.
  r = LeaveOutVaryingText(text, ClientTextOptions{.keep = true});
  EXPECT_EQ(r.text, text);
  EXPECT_EQ(r.left_out, nullptr);
}

TEST(ClientRegistry, TextThatOnlyLooksLikeTheBlockStaysPromptText) {
  for (const char* text : {
           "You are Claude Code.",
           " x-anthropic-billing-header: cc_version=2.1.328.ea9;",    // not at the start
           "x-anthropic-billing-header: cc_version=2.1.328.ea9",      // no closing ';'
           "x-anthropic-billing-header: please keep this sentence;",  // a field without '='
           "x-anthropic-billing-header:",                             // no field
           "The x-anthropic-billing-header: cc_version=1; line",
       }) {
    ClientTextResult r = LeaveOutVaryingText(text);
    EXPECT_EQ(r.text, text);
    EXPECT_EQ(r.left_out, nullptr) << text;
  }
}

TEST(ClientRegistry, CapturedClaudeCodeRequestsCarryThePerSessionForm) {
  auto corpus = testing::CorpusDir();
  if (!corpus) GTEST_SKIP() << "corpus not available";
  const auto dir = *corpus / "requests/claude-code-2.1.328";
  if (!std::filesystem::exists(dir / "000.json")) GTEST_SKIP() << dir << " absent";
  for (const char* name : {"000.json", "001.json", "002.json", "003.json"}) {
    auto bytes = ReadFileBytes(dir / name);
    ASSERT_TRUE(bytes) << name;
    auto body = nlohmann::json::parse(*bytes);
    auto h = ParseBillingHeader(body["system"][0]["text"].get<std::string>());
    ASSERT_TRUE(h) << name;
    EXPECT_EQ(h->version, "2.1.328");
    EXPECT_EQ(h->suffix.size(), 3u);
    EXPECT_FALSE(h->cch) << name;  // 2.1.328 sends no per-request value
    EXPECT_EQ(h->entry->id, "billing-header");
    // The second block is prompt text.
    EXPECT_FALSE(ParseBillingHeader(body["system"][1]["text"].get<std::string>()));
  }
}

}  // namespace
}  // namespace strata
