// naive_layout.cc: the naive layout for replay (layout.h), what a simple harness sends: today's
// date and the working directory open system block 1 (as many clients write an environment
// block), then persona, rules and instructions; tools in the order the transcript gives them; the
// whole conversation after, with the renderer's breakpoints. The date is the day, not the time:
// a client that wrote the clock to the millisecond on top would miss on every request, which says
// nothing about real clients; this one misses when the day or the working directory changes and
// wherever its order differs from strata's.
#include <span>

#include "replay/layout.h"

namespace strata {
namespace {

PromptHead NaiveHead(const ContextInputs& ctx, const std::string& now) {
  PromptHead head;
  head.tools = ctx.tools;
  std::string env = "Today's date: " + now.substr(0, 10) + "\nWorking directory: " + ctx.cwd;
  head.block1.push_back({LayerKind::kEnvironment, Volatility::kTurn, "", env});
  head.block1.push_back({LayerKind::kPersona, Volatility::kStatic, "", ctx.persona});
  for (const auto& r : ctx.rules) {
    head.block1.push_back({LayerKind::kRules, Volatility::kStatic, "", r});
  }
  for (const auto& s : ctx.instructions) {
    head.block2.push_back({LayerKind::kInstructions, Volatility::kSession, s.key, s.text});
  }
  std::string skills;
  for (const auto& s : ctx.skills) skills += "- " + s.name + ": " + s.description + "\n";
  head.block2.push_back({LayerKind::kSkills, Volatility::kSession, "", skills});
  head.block2.push_back({LayerKind::kNotes, Volatility::kSession, "", ctx.notes});
  head.block2.push_back({LayerKind::kPlan, Volatility::kSession, "", ctx.plan});
  return head;
}

// Appends `part` to `bytes`, its spans and breakpoints to `out` shifted to their offsets there.
void AppendPart(const RenderedPart& part, std::string* bytes, RebuiltRequest* out) {
  size_t at = bytes->size();
  *bytes += part.bytes;
  for (auto s : part.spans) {
    s.begin += at;
    s.end += at;
    out->spans.push_back(s);
  }
  for (auto bp : part.breakpoints) {
    bp.offset += at;
    out->breakpoints.push_back(bp);
  }
}

class NaiveLayout final : public Layout {
 public:
  explicit NaiveLayout(const LayoutOptions& options)
      : renderer_(MakeRenderer(options.provider, options.chat_template)),
        long_ttl_(options.long_ttl_breakpoints) {}

  Status BeginTurn(const ContextInputs&, Message user) override { return Append(std::move(user)); }

  Status Append(Message message) override {
    messages_.push_back(std::move(message));
    return {};
  }

  Result<RebuiltRequest> Render(const ContextInputs& ctx, const std::string& now,
                                RequestText* text) override {
    RenderOptions options;
    options.model = ctx.model;
    options.long_ttl_breakpoints = long_ttl_;
    RenderedPart head;
    renderer_->RenderHead(NaiveHead(ctx, now), options, &head);
    std::string bytes = std::move(head.bytes);
    RebuiltRequest b{std::move(head.spans), std::move(head.breakpoints)};
    // History runs to the last assistant message; the messages after it form the tail.
    size_t boundary = 0;
    for (size_t i = 0; i < messages_.size(); ++i) {
      if (messages_[i].role == Role::kAssistant) boundary = i + 1;
    }
    bool preceded = head.has_items;
    if (boundary > 0) {
      if (preceded) bytes += renderer_->separator();
      renderer_->AppendHistory(std::span(messages_.data(), boundary), false, &bytes);
      preceded = true;
    }
    RenderedPart tail;
    renderer_->RenderTail(std::span(messages_.data() + boundary, messages_.size() - boundary),
                          preceded, "", options, b.breakpoints.size(), &tail);
    AppendPart(tail, &bytes, &b);
    text->Set(bytes);
    return b;
  }

 private:
  std::unique_ptr<Renderer> renderer_;
  int long_ttl_;
  std::vector<Message> messages_;
};

}  // namespace

std::unique_ptr<Layout> MakeNaiveLayout(const LayoutOptions& options) {
  return std::make_unique<NaiveLayout>(options);
}

}  // namespace strata
