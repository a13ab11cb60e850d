// model_chat_template_test.cc: a model's own Jinja chat template (tokenizer.chat_template) drives
// the local session's render: a template llama.cpp's built-in list does not know is served, its
// output is the prompt, restore + suffix still equals a full prefill, a template whose render of a
// message depends on what follows it is refused, and a model without a template gets ChatML.
#include "local/local_fixture.h"

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

class ModelChatTemplateTest : public LocalTest {
 protected:
  SessionConfig Terse() const {
    SessionConfig c;
    c.agent_prompt = "You are terse.";
    return c;
  }
};

TEST_F(ModelChatTemplateTest, CustomJinjaTemplateIsServedAndIsThePrompt) {
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

TEST_F(ModelChatTemplateTest, CustomTemplateRestorePlusSuffixEqualsFullPrefill) {
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

TEST_F(ModelChatTemplateTest, LaterTurnsAppendTheTemplatesText) {
  auto model = ModelWithTemplate(tmp_.path(), CustomTestChatTemplate());
  ASSERT_NE(model, nullptr);
  LocalSession session(*model, *store_, Terse(), engine_);
  ASSERT_TRUE(session.Submit("One").has_value());
  auto two = session.Submit("Two");
  ASSERT_TRUE(two.has_value()) << FormatError(two.error());
  // Only the delta is prefilled: the empty reply's close, then the new user message and prompt:
  // "\n[[END]]\n[[USER]]\nTwo\n[[END]]\n[[ASSISTANT]]\n".
  auto delta = TokenizeText(*model, "\n[[END]]\n[[USER]]\nTwo\n[[END]]\n[[ASSISTANT]]\n", false);
  ASSERT_TRUE(delta.has_value());
  EXPECT_EQ(two->suffix_tokens, delta->size());
}

TEST_F(ModelChatTemplateTest, TemplateThatDependsOnWhatFollowsIsRefused) {
  // The last message is marked: message i renders differently once message i + 1 exists.
  auto model =
      ModelWithTemplate(tmp_.path(),
                        "{% for m in messages %}{% if loop.last %}LAST {% endif %}<{{ m['role'] }}>"
                        "{{ m['content'] }}</{{ m['role'] }}>\n{% endfor %}"
                        "{% if add_generation_prompt %}<assistant>{% endif %}");
  ASSERT_NE(model, nullptr);
  LocalSession session(*model, *store_, Terse(), engine_);
  auto r = session.Submit("Hello");
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_NE(r.error().message.find("cannot be rendered one message at a time"), std::string::npos)
      << r.error().message;
  EXPECT_NE(r.error().message.find("message 1 (system)"), std::string::npos) << r.error().message;
  EXPECT_FALSE(session.started());
}

TEST_F(ModelChatTemplateTest, ModelWithoutTemplateFallsBackToChatMl) {
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
