// chat_serve_parity_slow_test.cc: `strata chat` (LocalSession) and `strata serve` are clients of
// one engine and one renderer: the same conversation renders to the same bytes, and the prefix a
// chat session stored is the one a serve request restores (same checkpoint key), and back.
#include "serve/serve_fixture.h"

namespace strata::testing {
namespace {

class ChatServeParityTest : public ServeTest {
 protected:
  // The chat session's engine settings: the server's (Options(): 1024 tokens, one thread) with
  // serve's defaults for the rest, which EngineOptions shares.
  EngineOptions Engine() const {
    EngineOptions e;
    e.n_ctx = 1024;
    e.n_threads = 1;
    return e;
  }
  // A chat session's configuration whose head is ServeTest::ChatBody's: the same system text
  // (persona only) and tool.
  static SessionConfig Config() {
    SessionConfig c;
    c.agent_prompt = kSystem;
    c.tools = {{"read_file", "Reads a file of the project.",
                R"({"type":"object","properties":{"path":{"type":"string"}}})"}};
    return c;
  }
  std::unique_ptr<CheckpointStore> OpenStore() const {
    auto opened = CheckpointStore::Open({tmp_.path() / "kv", 1ull << 30});
    EXPECT_TRUE(opened.has_value());
    return opened ? std::move(*opened) : nullptr;
  }
  // The `restored=N` count of the server's last request log line.
  static long Restored(const RunningServer& server) {
    const std::vector<std::string> log = server.log();
    if (log.empty()) return -1;
    const std::string& line = log.back();
    const size_t at = line.find(" restored=");
    return at == std::string::npos ? -1 : std::stol(line.substr(at + 10));
  }
};

TEST_F(ChatServeParityTest, ChatStoresThePrefixServeRestoresAndTheBytesAreTheSame) {
  auto store = OpenStore();
  ASSERT_NE(store, nullptr);
  LocalSession chat(TinyModel(), *store, Config(), Engine());
  auto turn = chat.Submit("Where are the tests?");
  ASSERT_TRUE(turn.has_value()) << FormatError(turn.error());
  ASSERT_EQ(turn->checkpoint, CheckpointOutcome::kMiss);
  ASSERT_TRUE(turn->stored);
  ASSERT_TRUE(std::filesystem::exists(store->PathFor(turn->key)));
  store.reset();

  RunningServer server(Options());
  auto client = server.Client();
  // The same conversation through serve's template endpoint: the same bytes.
  nlohmann::json body = ChatBody("Where are the tests?");
  nlohmann::json applied = Post(*client, "/apply-template", body);
  ASSERT_TRUE(applied.contains("prompt")) << applied.dump();
  EXPECT_EQ(applied["prompt"].get<std::string>(), chat.rendered_prefix() + chat.rendered_suffix());
  // And a generation request restores the file the chat session stored: its whole prefix.
  int status = 0;
  Post(*client, "/v1/chat/completions", body, &status);
  EXPECT_EQ(status, 200);
  EXPECT_EQ(Restored(server), static_cast<long>(turn->prefix_tokens)) << server.log().back();
}

TEST_F(ChatServeParityTest, ServeStoresThePrefixChatRestores) {
  {
    RunningServer server(Options());
    auto client = server.Client();
    int status = 0;
    Post(*client, "/v1/chat/completions", ChatBody("List the files."), &status);
    ASSERT_EQ(status, 200);
    EXPECT_EQ(Restored(server), 0);
  }
  auto store = OpenStore();
  ASSERT_NE(store, nullptr);
  LocalSession chat(TinyModel(), *store, Config(), Engine());
  auto turn = chat.Submit("Where are the tests?");
  ASSERT_TRUE(turn.has_value()) << FormatError(turn.error());
  EXPECT_EQ(turn->checkpoint, CheckpointOutcome::kHit);
  EXPECT_EQ(turn->stored, false);  // nothing new: the prefix was serve's
}

}  // namespace
}  // namespace strata::testing
