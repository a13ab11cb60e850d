// Tests of ContextSession: the cache properties of SPEC.md §4 checked on raw rendered bytes.
#include "strata/assemble.h"

#include <gtest/gtest.h>

#include <map>

#include "assemble/session_fixture.h"
#include "support/test_support.h"

namespace strata {
namespace {

using namespace strata::testing;

struct Rendered {
  std::string bytes;
  LayerMap layers;
  std::vector<Breakpoint> breakpoints;
  std::vector<CacheEvent> events;
  size_t head_end = 0;
};

Rendered RenderNow(ContextSession& session, Provider provider, const ContextInputs& inputs,
                   const TurnInputs& turn) {
  auto r = session.Render(provider, inputs, turn);
  EXPECT_TRUE(r.has_value());
  if (!r) return {};
  return {r->request.Flatten(), r->request.layers, r->request.breakpoints, r->events,
          r->request.head_end};
}

// End of the history layer, or (no history yet) of the last span before the new input.
size_t HistoryEnd(const Rendered& r) {
  if (const LayerSpan* h = FindSpan(r.layers, "history")) return h->end;
  size_t end = 0;
  for (const auto& s : r.layers) {
    if (s.layer == "input" || s.layer == "epoch" || s.layer == "tail") break;
    end = s.end;
  }
  return end;
}

ContextSession NewSession(AssembleOptions options = {}) {
  auto s = ContextSession::Create(std::move(options));
  EXPECT_TRUE(s.has_value());
  return std::move(*s);
}

// --- The prefix property --------------------------------------------------------------------

TEST(AssembleTest, EachRequestIsAPrefixOfTheNextUpToTheEndOfItsHistoryOver50Turns) {
  ContextSession session = NewSession();
  ContextInputs inputs = BaseInputs();
  std::map<Provider, Rendered> previous;
  std::map<Provider, std::string> marker_of;  // text of the last history message of `previous`
  std::string last_answer;
  int requests = 0;
  auto check = [&](const TurnInputs& turn) {
    for (Provider p : kAllProviders) {
      Rendered next = RenderNow(session, p, inputs, turn);
      auto it = previous.find(p);
      if (it != previous.end()) {
        const Rendered& prev = it->second;
        size_t end = HistoryEnd(prev);
        ASSERT_GT(end, 0u);
        ASSERT_LE(end, next.bytes.size());
        EXPECT_EQ(prev.bytes.substr(0, end), next.bytes.substr(0, end))
            << ProviderName(p) << " request " << requests;
        EXPECT_GT(HistoryEnd(next), end) << "history must grow";
        if (!marker_of[p].empty()) {
          // The compared prefix really holds the conversation, not just the head.
          EXPECT_NE(prev.bytes.substr(0, end).find(marker_of[p]), std::string::npos)
              << ProviderName(p) << " request " << requests << " marker " << marker_of[p];
        }
        if (p == Provider::kAnthropic) {
          // Stronger: everything the previous request cached survives.
          ASSERT_FALSE(prev.breakpoints.empty());
          size_t b = prev.breakpoints.back().offset;
          EXPECT_GT(b, end);
          EXPECT_EQ(prev.bytes.substr(0, b), next.bytes.substr(0, b)) << "request " << requests;
        }
        EXPECT_TRUE(next.events.empty());
      }
      previous[p] = std::move(next);
      marker_of[p] = last_answer;
    }
    ++requests;
  };
  for (int t = 0; t < 50; ++t) {
    ASSERT_TRUE(session.BeginTurn(inputs, "request number " + std::to_string(t)).has_value());
    TurnInputs turn = At(Clock(t * 61));
    turn.session_state = {{"turn", std::to_string(t)}};
    check(turn);
    if (t % 3 == 1) {  // a tool-call streak of two calls
      for (int k = 0; k < 2; ++k) {
        std::string id = "call_" + std::to_string(t) + "_" + std::to_string(k);
        std::string path = "src/file_" + std::to_string(t) + "_" + std::to_string(k) + ".cc";
        ToolCall call{id, "read", R"({"path":")" + path + R"("})"};
        ASSERT_TRUE(session.Append(Assistant(k ? "" : "Reading.", {call})).has_value());
        ASSERT_TRUE(session.Append(ToolResult(id, "contents of " + id)).has_value());
        last_answer = path;  // the assistant message holding the call ends the history
        check(At(Clock(t * 61 + 10 + k)));
      }
    }
    last_answer = "answer number " + std::to_string(t);
    ASSERT_TRUE(session.Append(Assistant(last_answer)).has_value());
  }
  EXPECT_EQ(requests, 50 + 2 * 17);
}

// --- Tool order -----------------------------------------------------------------------------

TEST(AssembleTest, ToolBytesIgnoreRegistrationOrderReconnectsAndSchemaKeyOrder) {
  ContextInputs a = BaseInputs();
  ContextInputs b = BaseInputs();
  // Same tools, other order, and schema keys written in another order.
  b.tools = {Tool("diff", R"({"properties":{"staged":{"type":"boolean"}},"type":"object"})"),
             Tool("write", R"({"required":["path","text"],"type":"object","properties":{
                   "text":{"type":"string"},"path":{"type":"string"}}})"),
             Tool("status", R"({"properties":{},"type":"object"})"),
             Tool("read", R"({"properties":{"path":{"type":"string"}},"type":"object"})")};
  for (Provider p : kAllProviders) {
    ContextSession sa = NewSession(), sb = NewSession();
    ASSERT_TRUE(sa.BeginTurn(a, "hello").has_value());
    ASSERT_TRUE(sb.BeginTurn(b, "hello").has_value());
    Rendered ra = RenderNow(sa, p, a, At(Clock(0)));
    Rendered rb = RenderNow(sb, p, b, At(Clock(0)));
    EXPECT_EQ(ra.bytes, rb.bytes) << ProviderName(p);
    // Reconnect: the fs server re-registers its tools, now at the end of the list.
    ASSERT_TRUE(sa.Append(Assistant("hi")).has_value());
    ContextInputs reconnected = a;
    reconnected.tools = GitTools();
    for (auto& t : FsTools()) reconnected.tools.push_back(t);
    ASSERT_TRUE(sa.BeginTurn(reconnected, "again").has_value());
    Rendered after = RenderNow(sa, p, reconnected, At(Clock(1)));
    size_t head_end = HistoryEnd(ra);
    EXPECT_EQ(after.bytes.substr(0, head_end), ra.bytes.substr(0, head_end)) << ProviderName(p);
    EXPECT_TRUE(after.events.empty());
  }
}

TEST(AssembleTest, RegistrationOrderIsFrozenAcrossReconnects) {
  AssembleOptions options;
  options.tool_order = ToolOrder::kRegistration;
  ContextSession session = NewSession(options);
  ContextInputs in = BaseInputs();  // registers read, write, status, diff
  ASSERT_TRUE(session.BeginTurn(in, "one").has_value());
  Rendered first = RenderNow(session, Provider::kAnthropic, in, At(Clock(0)));
  size_t read = first.bytes.find("\"name\":\"read\"");
  size_t write = first.bytes.find("\"name\":\"write\"");
  size_t status = first.bytes.find("\"name\":\"status\"");
  size_t diff = first.bytes.find("\"name\":\"diff\"");
  EXPECT_LT(read, write);
  EXPECT_LT(write, status);
  EXPECT_LT(status, diff);
  ASSERT_TRUE(session.Append(Assistant("ok")).has_value());
  ContextInputs reconnected = in;
  reconnected.tools = GitTools();  // git first, then fs re-registers at the end
  for (auto& t : FsTools()) reconnected.tools.push_back(t);
  ASSERT_TRUE(session.BeginTurn(reconnected, "two").has_value());
  Rendered second = RenderNow(session, Provider::kAnthropic, reconnected, At(Clock(1)));
  size_t b = first.breakpoints.front().offset;
  EXPECT_EQ(first.bytes.substr(0, b), second.bytes.substr(0, b));
}

// TakeTail hands over the last segment's bytes (the new input) and leaves the session without
// them; the next Render renders the tail again, with the same bytes for the same state.
TEST(AssembleTest, TakeTailMovesTheLastRendersTailOut) {
  ContextSession session = NewSession();
  ContextInputs in = BaseInputs();
  ASSERT_TRUE(session.BeginTurn(in, "a new message").has_value());
  auto r = session.Render(Provider::kAnthropic, in, At(Clock(0)));
  ASSERT_TRUE(r.has_value());
  const std::string flat = r->request.Flatten();
  const std::string last(r->request.segments.back());
  ASSERT_NE(last.find("a new message"), std::string::npos);
  EXPECT_EQ(session.TakeTail(Provider::kOpenAiChat), "");  // nothing rendered for it
  EXPECT_EQ(session.TakeTail(Provider::kAnthropic), last);
  EXPECT_EQ(session.TakeTail(Provider::kAnthropic), "");
  Rendered again = RenderNow(session, Provider::kAnthropic, in, At(Clock(0)));
  EXPECT_EQ(again.bytes, flat);
}

// --- Time and working directory -------------------------------------------------------------

TEST(AssembleTest, ClockTicksOnlyTouchTheTailAndCwdChangesArriveAsAnEpoch) {
  ContextInputs in = BaseInputs();
  in.cwd = "/a";
  ContextSession session = NewSession();
  const std::vector<std::string> times = {"2026-11-29T10:00:00Z", "2026-11-29T10:00:01Z",
                                          "2026-11-29T23:59:59Z", "2026-11-30T00:00:01Z"};
  Rendered prev;
  for (size_t i = 0; i < times.size(); ++i) {
    ASSERT_TRUE(session.BeginTurn(in, "turn " + std::to_string(i)).has_value());
    Rendered next = RenderNow(session, Provider::kAnthropic, in, At(times[i]));
    const LayerSpan* tail = FindSpan(next.layers, "tail");
    ASSERT_NE(tail, nullptr);
    size_t at = next.bytes.find(times[i]);
    EXPECT_GE(at, tail->begin);
    EXPECT_LE(at + times[i].size(), tail->end);
    EXPECT_EQ(Count(next.bytes, "date-time:"), 1u) << "earlier times never stay behind";
    EXPECT_EQ(FindSpan(next.layers, "epoch"), nullptr);
    if (i > 0) {
      size_t b = prev.breakpoints.back().offset;
      EXPECT_EQ(prev.bytes.substr(0, b), next.bytes.substr(0, b)) << times[i];
      // The same state at another time differs inside the tail only.
      Rendered other = RenderNow(session, Provider::kAnthropic, in, At(times[i - 1]));
      EXPECT_GE(CommonPrefix(other.bytes, next.bytes), tail->begin);
      EXPECT_EQ(other.bytes.substr(tail->end), next.bytes.substr(tail->end));
    }
    prev = next;
    ASSERT_TRUE(session.Append(Assistant("done " + std::to_string(i))).has_value());
  }
  in.cwd = "/b";
  ASSERT_TRUE(session.BeginTurn(in, "after cd").has_value());
  Rendered moved = RenderNow(session, Provider::kAnthropic, in, At(times.back()));
  size_t b = prev.breakpoints.back().offset;
  EXPECT_EQ(prev.bytes.substr(0, b), moved.bytes.substr(0, b));
  const LayerSpan* epoch = FindSpan(moved.layers, "epoch");
  ASSERT_NE(epoch, nullptr);
  std::string notice = moved.bytes.substr(epoch->begin, epoch->end - epoch->begin);
  EXPECT_NE(notice.find("## cwd (modified)"), std::string::npos);
  EXPECT_NE(notice.find("-/a\\n+/b"), std::string::npos) << notice;
  const LayerSpan* env = FindSpan(moved.layers, "environment");
  ASSERT_NE(env, nullptr);
  EXPECT_EQ(moved.bytes.substr(env->begin, env->end - env->begin), "Working directory: /a");
  EXPECT_TRUE(moved.events.empty());
}

// --- Deferred tools -------------------------------------------------------------------------

TEST(AssembleTest, ToolRegisteredMidSessionIsAnnouncedInTheTailUntilTheNextEpoch) {
  ContextInputs in = BaseInputs();
  ContextSession session = NewSession();
  ASSERT_TRUE(session.BeginTurn(in, "start").has_value());
  std::map<Provider, std::string> head;
  for (Provider p : kAllProviders) {
    Rendered r = RenderNow(session, p, in, At(Clock(0)));
    head[p] = r.bytes.substr(0, HistoryEnd(r));  // tools + system bytes
  }
  ToolCall call{"c1", "read", R"({"path":"README.md"})"};
  ASSERT_TRUE(session.Append(Assistant("", {call})).has_value());
  ASSERT_TRUE(session.Append(ToolResult("c1", "readme")).has_value());
  in.tools.push_back(Tool("deploy", R"({"type":"object","properties":{"env":{"type":"string"}}})"));
  for (Provider p : kAllProviders) {  // mid-streak: announced in the tail
    Rendered r = RenderNow(session, p, in, At(Clock(5)));
    EXPECT_EQ(r.bytes.substr(0, head[p].size()), head[p]) << ProviderName(p);
    const LayerSpan* tail = FindSpan(r.layers, "tail");
    ASSERT_NE(tail, nullptr);
    std::string tail_bytes = r.bytes.substr(tail->begin, tail->end - tail->begin);
    EXPECT_NE(tail_bytes.find("tool-available:"), std::string::npos) << ProviderName(p);
    EXPECT_NE(tail_bytes.find("deploy"), std::string::npos);
    EXPECT_TRUE(r.events.empty());
  }
  ASSERT_TRUE(session.Append(Assistant("read it")).has_value());
  ASSERT_TRUE(session.BeginTurn(in, "next").has_value());  // the next epoch
  for (Provider p : kAllProviders) {
    Rendered r = RenderNow(session, p, in, At(Clock(9)));
    EXPECT_EQ(r.bytes.substr(0, head[p].size()), head[p]) << ProviderName(p);
    const LayerSpan* epoch = FindSpan(r.layers, "epoch");
    ASSERT_NE(epoch, nullptr) << ProviderName(p);
    EXPECT_NE(
        r.bytes.substr(epoch->begin, epoch->end - epoch->begin).find("## tool:deploy (added)"),
        std::string::npos);
    EXPECT_EQ(r.bytes.find("tool-available:"), std::string::npos) << ProviderName(p);
  }
}

// --- AGENTS.md edits ------------------------------------------------------------------------

TEST(AssembleTest, EditedAgentsMdIsADiffAtTheNextSafeBoundaryAndNeverMidStreak) {
  ContextInputs in = BaseInputs();
  ContextSession session = NewSession();
  ASSERT_TRUE(session.BeginTurn(in, "one").has_value());
  Rendered first = RenderNow(session, Provider::kAnthropic, in, At(Clock(0)));
  ASSERT_TRUE(session.Append(Assistant("ok")).has_value());

  // Nothing changed: the next turn adds exactly the user message, no notice.
  size_t before = session.history().size();
  ASSERT_TRUE(session.BeginTurn(in, "two").has_value());
  EXPECT_EQ(session.history().size(), before + 1);
  ToolCall call{"c1", "read", R"({"path":"AGENTS.md"})"};
  ASSERT_TRUE(session.Append(Assistant("", {call})).has_value());

  in.instructions[0].text = "# Project\n\nRun `make test` before committing.\nNew rule line.\n";
  EXPECT_FALSE(session.BeginTurn(in, "too early").has_value()) << "call c1 has no result";
  ASSERT_TRUE(session.Append(ToolResult("c1", "file text")).has_value());
  for (Provider p : kAllProviders) {
    Rendered streak = RenderNow(session, p, in, At(Clock(3)));
    EXPECT_EQ(streak.bytes.find("context-update"), std::string::npos) << ProviderName(p);
  }
  ASSERT_TRUE(session.Append(Assistant("done")).has_value());
  ASSERT_TRUE(session.BeginTurn(in, "three").has_value());
  Rendered third = RenderNow(session, Provider::kAnthropic, in, At(Clock(9)));
  const LayerSpan* epoch = FindSpan(third.layers, "epoch");
  ASSERT_NE(epoch, nullptr);
  std::string notice = third.bytes.substr(epoch->begin, epoch->end - epoch->begin);
  EXPECT_NE(notice.find("## instructions:AGENTS.md (modified)"), std::string::npos) << notice;
  EXPECT_NE(notice.find("+New rule line."), std::string::npos);
  EXPECT_EQ(notice.find("lib/AGENTS.md"), std::string::npos) << "unchanged sources cost nothing";
  EXPECT_EQ(notice.find("cwd"), std::string::npos);
  // Block 1 (and block 2: the change is not rewritten into the prefix) are untouched.
  size_t block2 = first.breakpoints[1].offset;
  EXPECT_EQ(first.bytes.substr(0, block2), third.bytes.substr(0, block2));
  EXPECT_EQ(first.breakpoints[0].layer, "system-block-1");
  EXPECT_TRUE(third.events.empty());
  // Announced once: the following turn carries no new notice.
  ASSERT_TRUE(session.Append(Assistant("noted")).has_value());
  before = session.history().size();
  ASSERT_TRUE(session.BeginTurn(in, "four").has_value());
  EXPECT_EQ(session.history().size(), before + 1);
}

TEST(AssembleTest, RealAgentsMdEditCostsOnlyItsDiff) {
  auto corpus = CorpusDir();
  if (!corpus) GTEST_SKIP() << "corpus absent";
  auto sources = LoadProjectInstructions(*corpus / "instructions" / "pydantic__pydantic-ai");
  ASSERT_TRUE(sources.has_value());
  ASSERT_GE(sources->size(), 1u);  // AGENTS.md first; CLAUDE.md (a link or its placeholder) after
  ASSERT_EQ((*sources)[0].key, "AGENTS.md");
  ContextInputs in = BaseInputs();
  in.instructions = *sources;
  ContextSession session = NewSession();
  ASSERT_TRUE(session.BeginTurn(in, "one").has_value());
  ASSERT_TRUE(session.Append(Assistant("ok")).has_value());
  std::string& text = in.instructions[0].text;
  size_t cut = text.find('\n', text.size() / 2);
  ASSERT_NE(cut, std::string::npos);
  text.insert(cut + 1, "Added line for the test.\n");
  ASSERT_TRUE(session.BeginTurn(in, "two").has_value());
  const Message& notice = session.history()[session.history().size() - 2];
  ASSERT_EQ(notice.role, Role::kContextUpdate);
  EXPECT_NE(notice.text.find("\n+Added line for the test.\n"), std::string::npos);
  EXPECT_EQ(Count(notice.text, "\n+"), 1u);
  EXPECT_EQ(Count(notice.text, "\n-"), 0u);
  EXPECT_LT(notice.text.size(), text.size() / 10) << "the diff, not the file";
}

TEST(AssembleTest, CrlfAgentsMdIsCleanedBeforeItReachesTheContext) {
  auto corpus = CorpusDir();
  if (!corpus) GTEST_SKIP() << "corpus absent";
  auto sources = LoadProjectInstructions(
      *corpus / "instructions" / "modelcontextprotocol__python-sdk" / "_crlf_variant_from_pr2443");
  ASSERT_TRUE(sources.has_value());
  ASSERT_GE(sources->size(), 1u);  // CLAUDE.md only imports AGENTS.md, which is loaded once
  EXPECT_EQ((*sources)[0].key, "AGENTS.md");
  EXPECT_EQ((*sources)[0].text.find('\r'), std::string::npos);
  EXPECT_FALSE((*sources)[0].text.empty());
}

TEST(AssembleTest, MissingAgentsMdIsNoSource) {
  TempDir dir;
  auto sources = LoadProjectInstructions(dir.path());
  ASSERT_TRUE(sources.has_value());
  EXPECT_TRUE(sources->empty());
}

// --- One-shot signals -----------------------------------------------------------------------

TEST(AssembleTest, OneShotSignalAppearsInExactlyOneRequest) {
  ContextInputs in = BaseInputs();
  ContextSession session = NewSession();
  std::map<Provider, int> seen;
  for (int t = 0; t < 5; ++t) {
    ASSERT_TRUE(session.BeginTurn(in, "turn " + std::to_string(t)).has_value());
    TurnInputs turn = At(Clock(t));
    if (t >= 1) turn.signals = {{"permission-mode#1", "permission mode changed to plan"}};
    for (Provider p : kAllProviders) {
      if (RenderNow(session, p, in, turn).bytes.find("permission mode changed to plan") !=
          std::string::npos) {
        ++seen[p];
      }
    }
    if (t == 2) {  // a streak request after the signal was shown
      ToolCall call{"c", "status", "{}"};
      ASSERT_TRUE(session.Append(Assistant("", {call})).has_value());
      ASSERT_TRUE(session.Append(ToolResult("c", "clean")).has_value());
      for (Provider p : kAllProviders) {
        if (RenderNow(session, p, in, turn).bytes.find("permission mode changed to plan") !=
            std::string::npos) {
          ++seen[p];
        }
      }
    }
    ASSERT_TRUE(session.Append(Assistant("ok")).has_value());
  }
  for (Provider p : kAllProviders) EXPECT_EQ(seen[p], 1) << ProviderName(p);
}

// --- Breakpoints ----------------------------------------------------------------------------

TEST(AssembleTest, AtMostFourBreakpointsAndOneHourBeforeFiveMinutes) {
  for (int long_ttl = 0; long_ttl <= 4; ++long_ttl) {
    AssembleOptions options;
    options.long_ttl_breakpoints = long_ttl;
    ContextSession session = NewSession(options);
    ContextInputs in = BaseInputs();
    for (int t = 0; t < 4; ++t) {
      ASSERT_TRUE(session.BeginTurn(in, "t" + std::to_string(t)).has_value());
      std::vector<Rendered> requests = {RenderNow(session, Provider::kAnthropic, in, At(Clock(t)))};
      ToolCall call{"c" + std::to_string(t), "read", R"({"path":"x"})"};
      ASSERT_TRUE(session.Append(Assistant("", {call})).has_value());
      ASSERT_TRUE(session.Append(ToolResult(call.id, "x")).has_value());
      requests.push_back(RenderNow(session, Provider::kAnthropic, in, At(Clock(t))));
      ASSERT_TRUE(session.Append(Assistant("ok")).has_value());
      for (const auto& r : requests) {
        EXPECT_LE(r.breakpoints.size(), 4u);
        EXPECT_EQ(Count(r.bytes, "\"cache_control\""), r.breakpoints.size());
        EXPECT_EQ(r.breakpoints.size(), 3u);  // block 1, block 2, new input
        for (size_t i = 0; i < r.breakpoints.size(); ++i) {
          EXPECT_EQ(r.breakpoints[i].ttl,
                    static_cast<int>(i) < long_ttl ? CacheTtl::k1h : CacheTtl::k5m);
        }
        size_t last_1h = r.bytes.rfind("\"ttl\":\"1h\"");
        size_t first_5m = r.bytes.find("{\"type\":\"ephemeral\"}");
        if (last_1h != std::string::npos && first_5m != std::string::npos) {
          EXPECT_LT(last_1h, first_5m);
        }
      }
    }
  }
}

TEST(AssembleTest, OpenAiRendersCarryNoCacheDirective) {
  AssembleOptions options;
  options.long_ttl_breakpoints = 2;
  options.prompt_cache_key = "project-42";
  ContextSession session = NewSession(options);
  ContextInputs in = BaseInputs();
  ASSERT_TRUE(session.BeginTurn(in, "hello").has_value());
  for (Provider p : {Provider::kOpenAiChat, Provider::kOpenAiResponses, Provider::kChatTemplate}) {
    Rendered r = RenderNow(session, p, in, At(Clock(0)));
    EXPECT_TRUE(r.breakpoints.empty());
    EXPECT_EQ(r.bytes.find("cache_control"), std::string::npos);
    EXPECT_EQ(r.bytes.find("ephemeral"), std::string::npos);
    if (p != Provider::kChatTemplate) {
      EXPECT_NE(r.bytes.find("\"prompt_cache_key\":\"project-42\""), std::string::npos);
    }
  }
  Rendered a = RenderNow(session, Provider::kAnthropic, in, At(Clock(0)));
  EXPECT_EQ(a.bytes.find("prompt_cache_key"), std::string::npos);
}

// --- Sessions sharing a project -------------------------------------------------------------

TEST(AssembleTest, SessionsOfOneProjectShareThePrefixUpToTheFirstUserMessage) {
  ContextInputs in = BaseInputs();
  for (Provider p : kAllProviders) {
    ContextSession s1 = NewSession(), s2 = NewSession();
    ASSERT_TRUE(s1.BeginTurn(in, "Fix the failing test in parser.cc").has_value());
    ASSERT_TRUE(s2.BeginTurn(in, "Write the release notes").has_value());
    Rendered a = RenderNow(s1, p, in, At(Clock(0)));
    Rendered b = RenderNow(s2, p, in, At(Clock(30)));
    size_t common = CommonPrefix(a.bytes, b.bytes);
    const LayerSpan* input = FindSpan(a.layers, "input");
    ASSERT_NE(input, nullptr);
    EXPECT_GE(common, input->begin) << ProviderName(p) << ": the whole head is shared";
    EXPECT_LE(a.head_end, common);
    if (p == Provider::kChatTemplate) {
      EXPECT_EQ(a.head_end, a.bytes.find("<|im_start|>user"));
    }
    if (p == Provider::kAnthropic) {
      ASSERT_EQ(a.breakpoints.size(), 3u);
      const Breakpoint& cut = a.breakpoints[1];
      EXPECT_EQ(cut.layer, "system-block-2");
      EXPECT_LE(cut.offset, common);
      // Between that breakpoint and the first user message there is only structure.
      EXPECT_EQ(a.bytes.substr(cut.offset, input->begin - cut.offset),
                ",\"cache_control\":{\"type\":\"ephemeral\"}}],\"messages\":[{\"role\":\"user\","
                "\"content\":[");
    }
  }
}

// --- Baseline rebuilds ----------------------------------------------------------------------

TEST(AssembleTest, CompactionAndModelFamilySwitchRebuildTheBaselineAsCacheEvents) {
  ContextInputs in = BaseInputs();
  ContextSession session = NewSession();
  ASSERT_TRUE(session.BeginTurn(in, "one").has_value());
  EXPECT_TRUE(RenderNow(session, Provider::kAnthropic, in, At(Clock(0))).events.empty());
  ASSERT_TRUE(session.Append(Assistant("ok")).has_value());

  in.model = "gpt-5";
  ASSERT_TRUE(session.BeginTurn(in, "two").has_value());
  Rendered switched = RenderNow(session, Provider::kAnthropic, in, At(Clock(1)));
  ASSERT_EQ(switched.events.size(), 1u);
  EXPECT_EQ(switched.events[0].reason, CacheEventReason::kModelFamilySwitch);
  EXPECT_NE(switched.events[0].detail.find("claude-sonnet-4-5 -> gpt-5"), std::string::npos);
  // Reported to every provider rendering this state, and not again afterwards.
  EXPECT_EQ(RenderNow(session, Provider::kOpenAiChat, in, At(Clock(1))).events.size(), 1u);
  ASSERT_TRUE(session.Append(Assistant("ok")).has_value());
  ASSERT_TRUE(session.BeginTurn(in, "three").has_value());
  EXPECT_TRUE(RenderNow(session, Provider::kAnthropic, in, At(Clock(2))).events.empty());

  // Compaction: the notes changed meanwhile; the rebuilt block 2 shows them, with no notice.
  in.notes = "Compacted notes.";
  Message summary;
  summary.role = Role::kUser;
  summary.text = "Summary of the conversation so far.";
  session.Compact({summary, Assistant("Understood.")});
  ASSERT_TRUE(session.BeginTurn(in, "four").has_value());
  Rendered compacted = RenderNow(session, Provider::kAnthropic, in, At(Clock(3)));
  ASSERT_EQ(compacted.events.size(), 1u);
  EXPECT_EQ(compacted.events[0].reason, CacheEventReason::kCompaction);
  EXPECT_NE(compacted.bytes.find("Compacted notes."), std::string::npos);
  EXPECT_EQ(compacted.bytes.find("context-update"), std::string::npos);
  EXPECT_EQ(compacted.bytes.find("\"one\""), std::string::npos);
  EXPECT_EQ(session.events().size(), 2u);
}

TEST(AssembleTest, RemovingABaselineToolIsAToolSurfaceEvent) {
  ContextInputs in = BaseInputs();
  ContextSession session = NewSession();
  ASSERT_TRUE(session.BeginTurn(in, "one").has_value());
  RenderNow(session, Provider::kAnthropic, in, At(Clock(0)));
  ASSERT_TRUE(session.Append(Assistant("ok")).has_value());
  in.tools.pop_back();
  ASSERT_TRUE(session.BeginTurn(in, "two").has_value());
  Rendered r = RenderNow(session, Provider::kAnthropic, in, At(Clock(1)));
  ASSERT_EQ(r.events.size(), 1u);
  EXPECT_EQ(r.events[0].reason, CacheEventReason::kToolSurfaceChanged);
}

TEST(AssembleTest, RedefinedToolRebuildsButARespelledSchemaDoesNot) {
  ContextInputs in = BaseInputs();
  in.tools[0].input_schema_json = R"({"type":"object","maxLength":1.0})";
  ContextSession session = NewSession();
  ASSERT_TRUE(session.BeginTurn(in, "one").has_value());
  RenderNow(session, Provider::kAnthropic, in, At(Clock(0)));
  ASSERT_TRUE(session.Append(Assistant("ok")).has_value());
  in.tools[0].input_schema_json = R"({"maxLength":1,"type":"object"})";
  ASSERT_TRUE(session.BeginTurn(in, "two").has_value());
  EXPECT_TRUE(RenderNow(session, Provider::kAnthropic, in, At(Clock(1))).events.empty());
  ASSERT_TRUE(session.Append(Assistant("ok")).has_value());
  in.tools[0].description = "Now does something else.";
  ASSERT_TRUE(session.BeginTurn(in, "three").has_value());
  Rendered r = RenderNow(session, Provider::kAnthropic, in, At(Clock(2)));
  ASSERT_EQ(r.events.size(), 1u);
  EXPECT_EQ(r.events[0].reason, CacheEventReason::kToolSurfaceChanged);
  EXPECT_NE(r.bytes.find("Now does something else."), std::string::npos);
}

// JSON text fields (prompt.h): the session refuses text that is not JSON, naming the call or the
// tool, and renders two spellings of one value to the same bytes.
TEST(AssembleTest, ToolCallArgumentsAndSchemasMustBeJsonText) {
  ContextInputs in = BaseInputs();
  ContextSession session = NewSession();
  ASSERT_TRUE(session.BeginTurn(in, "one").has_value());
  auto bad_call = session.Append(Assistant("", {{"c1", "read", "{path: a}"}}));
  ASSERT_FALSE(bad_call.has_value());
  EXPECT_EQ(bad_call.error().kind, ErrorKind::kParse);
  EXPECT_EQ(bad_call.error().where.path, "tool call 'c1' arguments_json");
  EXPECT_EQ(session.history().size(), 1u);  // nothing appended
  ContextInputs bad_tools = in;
  bad_tools.tools[1].input_schema_json = R"({"type": "object",)";
  auto render = session.Render(Provider::kAnthropic, bad_tools, At(Clock(0)));
  ASSERT_FALSE(render.has_value());
  EXPECT_EQ(render.error().where.path, "tool 'write' input_schema_json");
  std::vector<Message> history = {Assistant("", {{"c0", "read", "["}})};
  auto created = ContextSession::Create({}, history);
  ASSERT_FALSE(created.has_value());
  EXPECT_EQ(created.error().where.path, "tool call 'c0' arguments_json");
}

TEST(AssembleTest, ArgumentSpellingsRenderTheSameBytes) {
  auto render = [](const std::string& arguments) {
    ContextSession session = NewSession();
    ContextInputs in = BaseInputs();
    EXPECT_TRUE(session.BeginTurn(in, "one").has_value());
    EXPECT_TRUE(session.Append(Assistant("", {{"c1", "read", arguments}})).has_value());
    EXPECT_TRUE(session.Append(ToolResult("c1", "text")).has_value());
    return RenderNow(session, Provider::kAnthropic, in, At(Clock(0))).bytes;
  };
  std::string a = render(R"({"path": "a.txt", "limit": 10.0})");
  EXPECT_EQ(a, render(R"({"limit":10,"path":"a.txt"})"));
  EXPECT_NE(a.find(R"("input":{"limit":10,"path":"a.txt"})"), std::string::npos);
  EXPECT_NE(render("").find(R"("input":{})"), std::string::npos);
}

// --- Volatility order in the session --------------------------------------------------------

TEST(AssembleTest, SessionRefusesATurnLayerAboveHistory) {
  AssembleOptions options;
  options.layers[6].volatility = Volatility::kTurn;  // notes
  auto refused = ContextSession::Create(options);
  ASSERT_FALSE(refused.has_value());
  EXPECT_NE(refused.error().message.find("'notes'"), std::string::npos);

  options.order_policy = OrderPolicy::kWarn;
  auto warned = ContextSession::Create(options);
  ASSERT_TRUE(warned.has_value());
  ContextInputs in = BaseInputs();
  ASSERT_TRUE(warned->BeginTurn(in, "hi").has_value());
  auto r = warned->Render(Provider::kAnthropic, in, At(Clock(0)));
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->diagnostics.size(), 1u);
  EXPECT_EQ(r->diagnostics[0].kind, "volatility-order");
  // Accepted with a warning, the turn layer really renders its current value every request.
  in.notes = "Changed notes.";
  auto again = warned->Render(Provider::kAnthropic, in, At(Clock(0)));
  ASSERT_TRUE(again.has_value());
  EXPECT_NE(again->request.Flatten().find("Changed notes."), std::string::npos);
}

TEST(AssembleTest, PlanDeclaredBelowHistoryRidesInTheTail) {
  AssembleOptions options;
  options.layers = {{LayerKind::kPersona, Volatility::kStatic},
                    {LayerKind::kTools, Volatility::kStatic},
                    {LayerKind::kHistory, Volatility::kSession},
                    {LayerKind::kPlan, Volatility::kTurn},
                    {LayerKind::kTail, Volatility::kTurn}};
  ContextSession session = NewSession(options);
  ContextInputs in = BaseInputs();
  in.plan = "1. read\n2. fix";
  ASSERT_TRUE(session.BeginTurn(in, "go").has_value());
  Rendered r = RenderNow(session, Provider::kOpenAiChat, in, At(Clock(0)));
  const LayerSpan* tail = FindSpan(r.layers, "tail");
  ASSERT_NE(tail, nullptr);
  EXPECT_NE(r.bytes.substr(tail->begin, tail->end - tail->begin).find("# Plan"), std::string::npos);
  EXPECT_EQ(r.bytes.find("Working directory"), std::string::npos);  // not declared: absent
}

// --- Layer map ------------------------------------------------------------------------------

TEST(AssembleTest, LayerMapSpansAreOrderedDisjointAndPointAtTheirText) {
  ContextInputs in = BaseInputs();
  ContextSession session = NewSession();
  ASSERT_TRUE(session.BeginTurn(in, "first").has_value());
  ASSERT_TRUE(session.Append(Assistant("reply")).has_value());
  ASSERT_TRUE(session.BeginTurn(in, "second").has_value());
  for (Provider p : kAllProviders) {
    Rendered r = RenderNow(session, p, in, At(Clock(0)));
    size_t last = 0;
    for (const auto& s : r.layers) {
      EXPECT_LE(last, s.begin) << s.layer;
      EXPECT_LE(s.begin, s.end);
      last = s.end;
    }
    EXPECT_LE(last, r.bytes.size());
    const LayerSpan* persona = FindSpan(r.layers, "persona");
    ASSERT_NE(persona, nullptr);
    EXPECT_EQ(r.bytes.substr(persona->begin, persona->end - persona->begin),
              "You are a careful coding agent.");
    std::vector<std::string> sources;
    for (const auto& s : r.layers) {
      if (s.layer == "instructions") sources.push_back(s.source);
    }
    EXPECT_EQ(sources, (std::vector<std::string>{"AGENTS.md", "lib/AGENTS.md"}));
    const LayerSpan* history = FindSpan(r.layers, "history");
    ASSERT_NE(history, nullptr);
    std::string h = r.bytes.substr(history->begin, history->end - history->begin);
    EXPECT_NE(h.find("first"), std::string::npos);
    EXPECT_NE(h.find("reply"), std::string::npos);
    EXPECT_EQ(h.find("second"), std::string::npos);
  }
}

}  // namespace
}  // namespace strata
