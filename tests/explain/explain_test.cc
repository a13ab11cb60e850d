// explain tests: the layer named for a date change, a tool reorder and an edited AGENTS.md; the
// four captured Claude Code requests compared in their canonical prompt form, with and without a
// bust planted in the system text.
#include "strata/replay.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "io/file_io.h"
#include "strata/accounting.h"
#include "strata/assemble.h"
#include "support/test_support.h"
#include "transcripts/redaction.h"

namespace strata {
namespace {

ContextInputs Inputs() {
  ContextInputs in;
  in.model = "claude-sonnet-4-5";
  in.persona = "You are a careful coding agent.";
  in.rules = {"Run the tests before you finish."};
  in.tools = {{"alpha", "Reads a file.", R"({"type":"object"})"},
              {"beta", "Runs a command.", R"({"type":"object"})"}};
  in.cwd = "/home/dev/project";
  in.instructions = {{"AGENTS.md", "# Project\n\nUse cmake.\n"}};
  return in;
}

ExplainInput Render(const ContextInputs& in, const std::string& now,
                    ToolOrder order = ToolOrder::kSorted, int long_ttl = 0) {
  AssembleOptions o;
  o.tool_order = order;
  o.long_ttl_breakpoints = long_ttl;
  auto s = ContextSession::Create(o);
  EXPECT_TRUE(s);
  EXPECT_TRUE(s->BeginTurn(in, "Fix the build."));
  TurnInputs turn;
  turn.now = now;
  auto r = s->Render(Provider::kAnthropic, in, turn);
  EXPECT_TRUE(r);
  return {r->request.Flatten(), r->request.layers, r->request.breakpoints};
}

class ExplainTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto t = LoadNamedTokenizer("gpt-2", STRATA_LLAMA_VOCAB_DIR);
    if (!t) GTEST_SKIP() << t.error().message;
    tok_ = std::move(*t);
  }
  std::unique_ptr<Tokenizer> tok_;
};

TEST_F(ExplainTest, DateChangeIsInTheTailAndInvalidatesNoBreakpoint) {
  auto a = Render(Inputs(), "2026-11-29T10:00:00Z");
  auto b = Render(Inputs(), "2026-11-30T10:00:00Z");
  auto e = Explain(a, b, *tok_);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->layer, "tail");
  EXPECT_EQ(e->volatility, "turn");
  EXPECT_TRUE(e->invalidated.empty());  // the tail sits after the last breakpoint
  EXPECT_EQ(e->lost_cached_tokens, 0u);
  EXPECT_EQ(e->cause, "");  // nothing A cached is lost: no drop, so no cause
  EXPECT_EQ(FormatExplanation(*e).find("cause:"), std::string::npos) << FormatExplanation(*e);
  EXPECT_EQ(e->tokenizer, "llama.cpp vocab gpt-2");
}

TEST_F(ExplainTest, ToolReorderIsInTheToolsLayerAndInvalidatesEveryBreakpoint) {
  auto in = Inputs();
  auto a = Render(in, "2026-11-29T10:00:00Z", ToolOrder::kRegistration);
  std::swap(in.tools[0], in.tools[1]);  // e.g. an MCP reconnect registered them the other way
  auto b = Render(in, "2026-11-29T10:00:00Z", ToolOrder::kRegistration);
  auto e = Explain(a, b, *tok_);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->layer, "tools");
  EXPECT_EQ(e->source, "beta");  // B's first tool, where A had alpha
  EXPECT_EQ(e->invalidated.size(), a.breakpoints.size());
  EXPECT_EQ(e->uncached_tokens, e->tokens_b - e->first_token);
  EXPECT_GT(e->lost_cached_tokens, 0u);
  EXPECT_EQ(e->cause, "tools-change");
  EXPECT_FALSE(e->automatic);
}

TEST_F(ExplainTest, EditedAgentsMdIsInTheInstructionsLayer) {
  auto in = Inputs();
  auto a = Render(in, "2026-11-29T10:00:00Z");
  in.instructions[0].text = "# Project\n\nUse cmake and ninja.\n";
  auto b = Render(in, "2026-11-29T10:00:00Z");
  auto e = Explain(a, b, *tok_);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->layer, "instructions");
  EXPECT_EQ(e->source, "AGENTS.md");
  // Block 1 (tools, persona, rules) still holds; block 2 and the input breakpoints do not.
  ASSERT_EQ(a.breakpoints.size(), 3u);
  EXPECT_EQ(e->invalidated.size(), 2u);
}

TEST_F(ExplainTest, RawRequestsWithoutLayerMapNameTheJsonMember) {
  auto in = Inputs();
  auto a = Render(in, "2026-11-29T10:00:00Z");
  in.instructions[0].text = "# Project\n\nUse meson.\n";
  auto b = Render(in, "2026-11-29T10:00:00Z");
  auto ra = ParseExplainInput(a.bytes + "\n", "a.json");
  auto rb = ParseExplainInput(b.bytes + "\n", "b.json");
  ASSERT_TRUE(ra && rb);
  EXPECT_EQ(ra->breakpoints.size(), 3u);  // found from the cache_control members
  EXPECT_EQ(ra->breakpoints[0].offset, a.breakpoints[0].offset);
  auto e = Explain(*ra, *rb, *tok_);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->layer, "system");
  EXPECT_EQ(e->invalidated.size(), 2u);
}

TEST_F(ExplainTest, RawRequestBreakpointsKeepTheirTtl) {
  auto a = Render(Inputs(), "2026-11-29T10:00:00Z", ToolOrder::kSorted, /*long_ttl=*/1);
  auto raw = ParseExplainInput(a.bytes, "a.json");
  ASSERT_TRUE(raw);
  ASSERT_EQ(raw->breakpoints.size(), 3u);
  EXPECT_EQ(raw->breakpoints[0].ttl, CacheTtl::k1h);
  EXPECT_EQ(raw->breakpoints[1].ttl, CacheTtl::k5m);
}

TEST_F(ExplainTest, AssembleThenExplainOnTheCommandLine) {
  testing::TempDir dir;
  dir.Write("session.json", R"({"model": "claude-sonnet-4-5", "persona": "You are careful.",
    "tools": [{"name": "read", "description": "Read a file", "input_schema": {"type": "object"}}],
    "now": "2026-11-29T10:00:00Z", "cwd": "/work/project", "user": "run the tests"})");
  auto assemble = [&](const std::string& agents, const std::string& out, bool with_layers) {
    dir.Write("project/AGENTS.md", agents);
    std::vector<std::string> args{"assemble", "--session", "session.json", "--project", "project"};
    if (with_layers) args.push_back("--with-layers");
    auto r = testing::RunCli(args, dir.path());
    EXPECT_EQ(r.exit_code, 0) << r.err;
    dir.Write(out, r.out);
  };
  for (bool with_layers : {true, false}) {
    assemble("# Rules\n\nRun make test.\n", "a.json", with_layers);
    assemble("# Rules\n\nRun make check.\n", "b.json", with_layers);
    auto r = testing::RunCli({"explain", "a.json", "b.json", "--tokenizer", "gpt-2", "--vocab-dir",
                              STRATA_LLAMA_VOCAB_DIR},
                             dir.path());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    if (with_layers) {
      EXPECT_NE(r.out.find("layer: instructions (session), source AGENTS.md"), std::string::npos)
          << r.out;
    } else {
      EXPECT_NE(r.out.find("layer: system"), std::string::npos) << r.out;
    }
    EXPECT_NE(r.out.find("breakpoints invalidated: system-block-2@"), std::string::npos) << r.out;
  }
  EXPECT_EQ(testing::RunCli({"explain", "a.json", "missing.json"}, dir.path()).exit_code, 2);
}

TEST_F(ExplainTest, CliReadsAssembleWithLayersOutput) {
  testing::TempDir dir;
  auto in = Inputs();
  auto a = Render(in, "2026-11-29T10:00:00Z");
  in.instructions[0].text = "# Project\n\nUse bazel.\n";
  auto b = Render(in, "2026-11-29T10:00:00Z");
  auto pa = dir.Write("a.json", FormatExplainInput(a));
  auto pb = dir.Write("b.json", FormatExplainInput(b));
  auto r = testing::RunCli({"explain", pa.string(), pb.string(), "--json", "--tokenizer", "gpt-2",
                            "--vocab-dir", STRATA_LLAMA_VOCAB_DIR},
                           dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["layer"], "instructions");
  EXPECT_EQ(j["source"], "AGENTS.md");
}

}  // namespace
}  // namespace strata

namespace strata {
namespace {

TEST(ExplainInputTest, RefusesWhatIsNotARequestNamingTheFile) {
  auto empty = ParseExplainInput("", "a.json");
  ASSERT_FALSE(empty);
  EXPECT_EQ(empty.error().where.path, "a.json");
  EXPECT_FALSE(ParseExplainInput("hello world, not json\n", "a.json"));
  EXPECT_FALSE(ParseExplainInput("[1,2,3]\n", "a.json"));
  EXPECT_FALSE(ParseExplainInput(std::string("\xFF\xFE binary", 9), "a.json"));
  auto cut = ParseExplainInput("{\"model\":\"m\",\"messages\":[", "a.json");
  ASSERT_FALSE(cut);
  EXPECT_EQ(cut.error().where.line, 1);
  EXPECT_NE(cut.error().message.find("truncated"), std::string::npos);
  // A number beyond a double (found by fuzz/explain_input_fuzz.cc: it ended the process).
  auto huge = ParseExplainInput("{\"model\":\"m\",\"max_tokens\":4e400,\"messages\":[]}", "a.json");
  ASSERT_FALSE(huge);
  EXPECT_EQ(huge.error().where.path, "a.json");
}

TEST(ExplainInputTest, ReadsTheModelAndAcceptsChatTemplateText) {
  auto json = ParseExplainInput("{\"model\":\"claude-x\",\"messages\":[]}\n", "a.json");
  ASSERT_TRUE(json);
  EXPECT_EQ(json->model, "claude-x");
  auto text = ParseExplainInput("<|im_start|>system\nhi<|im_end|>\n", "a.txt");
  ASSERT_TRUE(text);
  EXPECT_EQ(text->bytes, "<|im_start|>system\nhi<|im_end|>");
}

// LoadExplainInput reads a file and takes the layer map of another; SaveExplainInput writes the
// {"request","layers","breakpoints"} form that reads back the same.
TEST(ExplainInputTest, LoadAndSaveGoThroughFiles) {
  testing::TempDir dir;
  LayerMap layers = {{"persona", Volatility::kStatic, "", 0, 5}};
  ExplainInput in{"hello", layers, {{5, CacheTtl::k1h, "persona"}}, "", ""};
  auto path = dir.path() / "sub" / "a.json";
  ASSERT_TRUE(SaveExplainInput(path, in));
  auto back = LoadExplainInput(path);
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->bytes, "hello");
  ASSERT_EQ(back->layers.size(), 1u);
  EXPECT_EQ(back->layers[0].end, 5u);
  ASSERT_EQ(back->breakpoints.size(), 1u);
  EXPECT_EQ(back->breakpoints[0].ttl, CacheTtl::k1h);
  // A layer map file replaces the input's own map.
  auto map = dir.Write("map.json", FormatLayerMap({{"tools", Volatility::kStatic, "", 0, 2},
                                                   {"persona", Volatility::kStatic, "", 2, 5}}));
  auto with_map = LoadExplainInput(path, map);
  ASSERT_TRUE(with_map) << with_map.error().message;
  EXPECT_EQ(with_map->layers.size(), 2u);
  auto missing = LoadExplainInput(dir.path() / "none.json");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().kind, ErrorKind::kNotFound);
  auto bad_map = LoadExplainInput(path, dir.Write("bad.json", "[{\"layer\": 3}]"));
  ASSERT_FALSE(bad_map);
  EXPECT_EQ(bad_map.error().where.path, (dir.path() / "bad.json").string());
}

TEST(ReplayCliInputTest, TranscriptWithNoRequestsIsAnInputError) {
  testing::TempDir dir;
  auto path = dir.Write("empty.jsonl", "");
  auto r = testing::RunCli({"replay", "--transcript", path.string()}, dir.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no model requests found"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace strata

namespace strata {
namespace {

// The captured Claude Code 2.1.328 request `name` as explain reads it, or nullopt when absent.
std::optional<std::string> CapturedRequest(const std::string& name) {
  auto corpus = testing::CorpusDir();
  if (!corpus) return std::nullopt;
  auto bytes = ReadFileBytes(*corpus / "requests/claude-code-2.1.328" / name);
  if (!bytes) return std::nullopt;
  return *bytes;
}

TEST_F(ExplainTest, CapturedClaudeCodeRequestsExtendEachOtherAndLoseNoCache) {
  const char* names[] = {"000.json", "001.json", "002.json", "003.json"};
  std::vector<ExplainInput> inputs;
  for (const char* name : names) {
    auto bytes = CapturedRequest(name);
    if (!bytes) GTEST_SKIP() << "corpus requests/claude-code-2.1.328 absent";
    auto in = ParseExplainInput(*bytes, name);
    ASSERT_TRUE(in) << in.error().message;
    EXPECT_EQ(in->api, "anthropic-messages");
    inputs.push_back(std::move(*in));
  }
  for (size_t i = 0; i + 1 < inputs.size(); ++i) {
    auto e = Explain(inputs[i], inputs[i + 1], *tok_);
    ASSERT_TRUE(e) << e.error().message;
    EXPECT_FALSE(e->identical);
    EXPECT_TRUE(e->prompt_extends) << "request " << i << ": " << FormatExplanation(*e);
    EXPECT_EQ(e->first_token, e->tokens_a) << "request " << i;  // all of A is a prefix of B
    EXPECT_TRUE(e->invalidated.empty()) << FormatExplanation(*e);
    EXPECT_EQ(e->lost_cached_tokens, 0u);
    EXPECT_EQ(e->outside_prompt, std::vector<std::string>{}) << FormatExplanation(*e);
  }
}

TEST_F(ExplainTest, ABustPlantedInTheSystemTextIsFoundAtItsPosition) {
  auto a_bytes = CapturedRequest("000.json");
  auto b_bytes = CapturedRequest("001.json");
  if (!a_bytes || !b_bytes) GTEST_SKIP() << "corpus requests/claude-code-2.1.328 absent";
  nlohmann::json b = nlohmann::json::parse(*b_bytes);
  std::string text = b["system"][2]["text"];
  b["system"][2]["text"] = text.substr(0, 100) + "Today is Tuesday. " + text.substr(100);
  b["metadata"]["user_id"] = "another";
  auto a = ParseExplainInput(*a_bytes, "000.json");
  auto planted = ParseExplainInput(b.dump(), "001-planted.json");
  ASSERT_TRUE(a && planted);
  auto e = Explain(*a, *planted, *tok_);
  ASSERT_TRUE(e) << e.error().message;
  EXPECT_FALSE(e->prompt_extends);
  EXPECT_EQ(e->layer, "system");
  EXPECT_EQ(e->position, "system[2], character 100");
  // A's breakpoints after the change: the one closing system[2] and the one on the first user
  // message's environment block; the one closing system[1] still holds.
  EXPECT_EQ(e->invalidated_paths, (std::vector<std::string>{"system[2]", "messages[1].content[0]"}))
      << FormatExplanation(*e);
  EXPECT_GT(e->lost_cached_tokens, 0u);
  EXPECT_EQ(e->outside_prompt, std::vector<std::string>{"metadata"});
  EXPECT_EQ(e->cause, "system-change");
  std::string text_out = FormatExplanation(*e);
  EXPECT_NE(text_out.find("first prompt difference (anthropic-messages canonical form): system[2], "
                          "character 100"),
            std::string::npos)
      << text_out;
  EXPECT_NE(text_out.find("metadata"), std::string::npos);
}

// The false bust of issue 21: two consecutive requests of a Claude Code version that sends cch
// (the captured 2.1.328 requests with the block of 2.1.17x planted, a new cch per request) lose
// no cached token; the block is named outside the prompt.
TEST_F(ExplainTest, ClaudeCodeCchDoesNotBustTheCache) {
  auto a_bytes = CapturedRequest("000.json");
  auto b_bytes = CapturedRequest("001.json");
  if (!a_bytes || !b_bytes) GTEST_SKIP() << "corpus requests/claude-code-2.1.328 absent";
  nlohmann::json a = nlohmann::json::parse(*a_bytes), b = nlohmann::json::parse(*b_bytes);
  a["system"][0]["text"] =
      "x-anthropic-billing-header: cc_version=2.1.170.3f1; cc_entrypoint=cli; cch=36ee5;";
  b["system"][0]["text"] =
      "x-anthropic-billing-header: cc_version=2.1.170.3f1; cc_entrypoint=cli; cch=0aaa9;";
  auto ia = ParseExplainInput(a.dump(), "a.json");
  auto ib = ParseExplainInput(b.dump(), "b.json");
  ASSERT_TRUE(ia && ib);
  auto e = Explain(*ia, *ib, *tok_);
  ASSERT_TRUE(e) << e.error().message;
  EXPECT_TRUE(e->prompt_extends) << FormatExplanation(*e);
  EXPECT_EQ(e->first_token, e->tokens_a);
  EXPECT_TRUE(e->invalidated.empty()) << FormatExplanation(*e);
  EXPECT_EQ(e->lost_cached_tokens, 0u);
  EXPECT_EQ(e->outside_prompt,
            std::vector<std::string>{"system[0]:claude-code/billing-header-cch"});
  // The same request in a new session (another suffix, no cch): identical prompts.
  nlohmann::json a2 = nlohmann::json::parse(*a_bytes);
  a2["system"][0]["text"] =
      "x-anthropic-billing-header: cc_version=2.1.328.07d; cc_entrypoint=cli;";
  auto i0 = ParseExplainInput(*a_bytes, "000.json");
  auto i2 = ParseExplainInput(a2.dump(), "000-new-session.json");
  ASSERT_TRUE(i0 && i2);
  auto same = Explain(*i0, *i2, *tok_);
  ASSERT_TRUE(same);
  EXPECT_TRUE(same->identical) << FormatExplanation(*same);
  EXPECT_EQ(same->lost_cached_tokens, 0u);
}

// Hand-written bodies in both forms (with and without cch): no lost token.
TEST_F(ExplainTest, HandWrittenBillingBlocksInBothFormsLoseNothing) {
  auto body = [](const std::string& header, const std::string& user) {
    nlohmann::json j = {{"model", "m"},
                        {"system",
                         {{{"type", "text"}, {"text", header}},
                          {{"type", "text"},
                           {"text", std::string(2000, 'x') + " You are Claude Code."},
                           {"cache_control", {{"type", "ephemeral"}}}}}},
                        {"messages", {{{"role", "user"}, {"content", user}}}}};
    return j.dump();
  };
  const std::pair<std::string, std::string> forms[] = {
      {"x-anthropic-billing-header: cc_version=2.1.328.ea9; cc_entrypoint=cli;",
       "x-anthropic-billing-header: cc_version=2.1.328.07d; cc_entrypoint=cli;"},
      {"x-anthropic-billing-header: cc_version=2.1.100.7b4; cc_entrypoint=cli; cch=eb6c6;",
       "x-anthropic-billing-header: cc_version=2.1.100.7b4; cc_entrypoint=cli; cch=71fea;"},
  };
  for (const auto& [ha, hb] : forms) {
    auto ia = ParseExplainInput(body(ha, "list the files"), "a.json");
    auto ib = ParseExplainInput(body(hb, "list the files and count them"), "b.json");
    ASSERT_TRUE(ia && ib);
    auto e = Explain(*ia, *ib, *tok_);
    ASSERT_TRUE(e);
    EXPECT_EQ(e->layer, "messages") << FormatExplanation(*e);
    EXPECT_TRUE(e->invalidated.empty()) << FormatExplanation(*e);
    EXPECT_EQ(e->lost_cached_tokens, 0u) << ha;
  }
}

TEST_F(ExplainTest, OnlyNonPromptMembersDifferingIsSaid) {
  std::string a =
      R"({"model":"m","stream":true,"system":"S","messages":[{"role":"user","content":"hi"}]})";
  std::string b =
      R"({"model":"m","stream":false,"max_tokens":5,"system":[{"type":"text","text":"S","cache_control":{"type":"ephemeral"}}],"messages":[{"role":"user","content":[{"type":"text","text":"hi"}]}]})";
  auto ia = ParseExplainInput(a, "a.json");
  auto ib = ParseExplainInput(b, "b.json");
  ASSERT_TRUE(ia && ib);
  auto e = Explain(*ia, *ib, *tok_);
  ASSERT_TRUE(e);
  EXPECT_TRUE(e->identical);
  EXPECT_EQ(e->outside_prompt, (std::vector<std::string>{"max_tokens", "stream"}));
  EXPECT_NE(FormatExplanation(*e).find("differs only outside the prompt"), std::string::npos);
}

// Positions count code points, not UTF-8 bytes: five em dashes (3 bytes each) before the change
// put it at character 12 of the block and byte 22.
TEST_F(ExplainTest, PositionsAreCodePoints) {
  std::string dashes = "\u2014\u2014\u2014\u2014\u2014";
  std::string a = R"({"model":"m","system":"ab)" + dashes +
                  R"(cdefgXYZ tail","messages":[{"role":"user","content":"hi"}]})";
  std::string b = R"({"model":"m","system":"ab)" + dashes +
                  R"(cdefgQYZ tail","messages":[{"role":"user","content":"hi"}]})";
  auto ia = ParseExplainInput(a, "a.json");
  auto ib = ParseExplainInput(b, "b.json");
  ASSERT_TRUE(ia && ib);
  auto e = Explain(*ia, *ib, *tok_);
  ASSERT_TRUE(e) << e.error().message;
  EXPECT_NE(e->position.find(", character 12"), std::string::npos) << e->position;
  EXPECT_EQ(e->cause, "system-change");
  // The whole canonical prefix in code points is 10 fewer than in bytes (5 x 2 extra bytes).
  EXPECT_EQ(e->first_char + 10, e->first_byte);
}

// The A/B excerpts are whole UTF-8 characters, wherever 40 bytes from the change falls: two
// requests of 3-byte hearts, one a prefix of the other's text, at every offset of the cut.
TEST_F(ExplainTest, ExcerptsNeverCutACharacter) {
  for (int pad = 0; pad < 3; ++pad) {
    std::string hearts;
    for (int i = 0; i < 30; ++i) hearts += "\u2764";
    const std::string lead(static_cast<size_t>(pad), 'x');
    std::string a =
        R"({"model":"m","messages":[{"role":"user","content":")" + lead + hearts + R"(A"}]})";
    std::string b = R"({"model":"m","messages":[{"role":"user","content":")" + lead + hearts +
                    hearts + R"(B"}]})";
    auto ia = ParseExplainInput(a, "a.json");
    auto ib = ParseExplainInput(b, "b.json");
    ASSERT_TRUE(ia && ib);
    auto e = Explain(*ia, *ib, *tok_);
    ASSERT_TRUE(e) << e.error().message;
    for (const std::string* text : {&e->context_a, &e->context_b}) {
      ASSERT_FALSE(text->empty());
      EXPECT_NE(static_cast<unsigned char>(text->front()) & 0xC0, 0x80) << pad;
      EXPECT_NO_THROW((void)nlohmann::json(*text).dump()) << pad;
    }
    EXPECT_NO_THROW((void)FormatExplanation(*e)) << pad;
  }
}

// OpenAI caches automatically: A's whole prompt was cached, so a change in the system message
// loses A's tokens after it, and B's tokens from it on are named uncached.
TEST_F(ExplainTest, AutomaticCachingNamesTheUncachedPart) {
  std::string sys = SynthesizeText(4000, "system");
  auto body = [&](const std::string& system) {
    nlohmann::json j = {{"model", "gpt-5"},
                        {"messages",
                         {{{"role", "system"}, {"content", system}},
                          {{"role", "user"}, {"content", SynthesizeText(2000, "user")}}}}};
    return j.dump();
  };
  auto ia = ParseExplainInput(body(sys), "a.json");
  auto ib = ParseExplainInput(body(sys.substr(0, 3000) + "CHANGED" + sys.substr(3000)), "b.json");
  ASSERT_TRUE(ia && ib);
  EXPECT_EQ(ia->api, "openai-chat");
  auto e = Explain(*ia, *ib, *tok_);
  ASSERT_TRUE(e) << e.error().message;
  EXPECT_TRUE(e->automatic);
  EXPECT_EQ(e->lost_cached_tokens, e->tokens_a - e->first_token);
  EXPECT_GT(e->lost_cached_tokens, 300u);
  EXPECT_EQ(e->uncached_tokens, e->tokens_b - e->first_token);
  EXPECT_EQ(e->cause, "system-change");
  std::string text = FormatExplanation(*e);
  EXPECT_NE(text.find("automatic caching: A's whole prompt was cached; B reads its first " +
                      std::to_string(e->first_token) + " tokens"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("0 of A's cached tokens lost"), std::string::npos) << text;
}

}  // namespace
}  // namespace strata
