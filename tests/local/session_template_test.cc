// session_template_test.cc: a model's own Jinja chat template (tokenizer.chat_template) renders the
// local session's whole conversation: a template llama.cpp's built-in list does not know is used,
// its output is the prompt, restore + suffix still equals a full prefill, later turns prefill only
// what the context does not hold, a template whose render of the system part depends on what
// follows it gets no checkpoint (the prompt is still its render), and a model without a template
// gets ChatML.
#include "local/local_engine.h"
#include "local/local_fixture.h"
#include "local/local_model.h"

namespace strata::testing {
namespace {

namespace fs = std::filesystem;

// A tiny model (seed 1 weights) whose tokenizer.chat_template is `chat_template` ("" with
// omit: no template at all).
std::unique_ptr<LocalModel> ModelWithTemplate(const fs::path& dir, const std::string& chat_template,
                                              bool omit = false) {
  TestModelOptions o;
  o.vocab_path = VocabPath();
  o.chat_template = chat_template;
  o.omit_chat_template = omit;
  const fs::path out = dir / "templated.gguf";
  auto st = WriteTestModel(o, out);
  EXPECT_TRUE(st.has_value()) << (st ? "" : FormatError(st.error()));
  auto loaded = LocalModel::Load(out);
  EXPECT_TRUE(loaded.has_value()) << (loaded ? "" : FormatError(loaded.error()));
  return loaded ? std::move(*loaded) : nullptr;
}

class SessionTemplateTest : public LocalTest {
 protected:
  SessionConfig Terse() const {
    SessionConfig c;
    c.agent_prompt = "You are terse.";
    return c;
  }
};

TEST_F(SessionTemplateTest, CustomJinjaTemplateIsServedAndIsThePrompt) {
  auto model = ModelWithTemplate(tmp_.path(), CustomTestChatTemplate());
  ASSERT_NE(model, nullptr);
  EXPECT_EQ(model->chat_template(), CustomTestChatTemplate());
  LocalSession session(*model, *store_, Terse(), engine_);
  auto r = session.Submit("Hello");
  ASSERT_TRUE(r.has_value()) << FormatError(r.error());
  // The template's output, written by hand from its text.
  EXPECT_EQ(session.rendered_prefix(), "[[BEGIN]]\n[[SYSTEM]]\nYou are terse.\n[[END]]\n");
  EXPECT_EQ(session.rendered_suffix(), "[[USER]]\nHello\n[[END]]\n[[ASSISTANT]]\n");
  EXPECT_EQ(r->checkpoint, CheckpointOutcome::kMiss);
}

TEST_F(SessionTemplateTest, CustomTemplateRestorePlusSuffixEqualsFullPrefill) {
  auto model = ModelWithTemplate(tmp_.path(), CustomTestChatTemplate());
  ASSERT_NE(model, nullptr);
  LocalSession miss(*model, *store_, Terse(), engine_);
  auto m = miss.Submit("Where are the tests?");
  ASSERT_TRUE(m.has_value()) << FormatError(m.error());
  ASSERT_EQ(m->checkpoint, CheckpointOutcome::kMiss);
  LocalSession hit(*model, *store_, Terse(), engine_);
  auto h = hit.Submit("Where are the tests?");
  ASSERT_TRUE(h.has_value()) << FormatError(h.error());
  ASSERT_EQ(h->checkpoint, CheckpointOutcome::kHit);
  EXPECT_EQ(hit.prefix_tokens(), miss.prefix_tokens());
  std::vector<int32_t> all = hit.prefix_tokens();
  all.insert(all.end(), hit.first_suffix_tokens().begin(), hit.first_suffix_tokens().end());
  auto full = FullPrefillLogits(*model, engine_, all);
  ASSERT_TRUE(full.has_value());
  ASSERT_EQ(full->size(), hit.prompt_logits().size());
  EXPECT_TRUE(*full == hit.prompt_logits()) << "restored logits differ from a full prefill";
  EXPECT_TRUE(*full == miss.prompt_logits());
}

TEST_F(SessionTemplateTest, LaterTurnsPrefillOnlyWhatTheContextDoesNotHold) {
  auto model = ModelWithTemplate(tmp_.path(), CustomTestChatTemplate());
  ASSERT_NE(model, nullptr);
  LocalSession session(*model, *store_, Terse(), engine_);
  ASSERT_TRUE(session.Submit("One").has_value());
  const int64_t before = session.counters().prefill_tokens;
  auto two = session.Submit("Two");
  ASSERT_TRUE(two.has_value()) << FormatError(two.error());
  // The whole conversation, written by hand from the template's text (the empty reply between).
  const std::string whole =
      "[[BEGIN]]\n[[SYSTEM]]\nYou are terse.\n[[END]]\n[[USER]]\nOne\n[[END]]\n[[ASSISTANT]]\n"
      "\n[[END]]\n[[USER]]\nTwo\n[[END]]\n[[ASSISTANT]]\n";
  auto all = TokenizeText(*model, whole, true);
  ASSERT_TRUE(all.has_value());
  std::vector<int32_t> held = session.prefix_tokens();
  held.insert(held.end(), session.first_suffix_tokens().begin(),
              session.first_suffix_tokens().end());
  size_t common = 0;
  while (common < held.size() && common < all->size() && held[common] == (*all)[common]) ++common;
  EXPECT_GT(common, session.prefix_tokens().size());
  EXPECT_EQ(two->suffix_tokens, all->size() - common);
  EXPECT_EQ(session.counters().prefill_tokens - before, static_cast<int64_t>(two->suffix_tokens));
}

TEST_F(SessionTemplateTest, TemplateWhoseSystemPartDependsOnWhatFollowsGetsNoCheckpoint) {
  // The last message is marked: the system message renders differently once a user message
  // follows, so its render is no prefix of the prompt and cannot be a checkpoint.
  auto model =
      ModelWithTemplate(tmp_.path(),
                        "{% for m in messages %}{% if loop.last %}LAST {% endif %}<{{ m['role'] }}>"
                        "{{ m['content'] }}</{{ m['role'] }}>\n{% endfor %}"
                        "{% if add_generation_prompt %}<assistant>{% endif %}");
  ASSERT_NE(model, nullptr);
  LocalSession session(*model, *store_, Terse(), engine_);
  auto r = session.Submit("Hello");
  ASSERT_TRUE(r.has_value()) << FormatError(r.error());
  EXPECT_EQ(session.rendered_prefix(), "");
  EXPECT_EQ(session.rendered_suffix(),
            "<system>You are terse.</system>\nLAST <user>Hello</user>\n<assistant>");
  EXPECT_EQ(r->key, "");
  EXPECT_FALSE(r->stored);
  EXPECT_EQ(KvFiles(), 0u);
}

TEST_F(SessionTemplateTest, ModelWithoutTemplateFallsBackToChatMl) {
  auto model = ModelWithTemplate(tmp_.path(), "", /*omit=*/true);
  ASSERT_NE(model, nullptr);
  EXPECT_EQ(model->chat_template(), "");
  LocalSession session(*model, *store_, Terse(), engine_);
  auto r = session.Submit("Hello");
  ASSERT_TRUE(r.has_value()) << FormatError(r.error());
  EXPECT_EQ(session.rendered_prefix(), "<|im_start|>system\nYou are terse.<|im_end|>\n");
  EXPECT_EQ(session.rendered_suffix(),
            "<|im_start|>user\nHello<|im_end|>\n<|im_start|>assistant\n");
}

}  // namespace
}  // namespace strata::testing
