// strata_layout.cc: the strata layout for replay (layout.h): the requests strata's own
// ContextSession (assemble.h) builds, stable tools and system blocks first, the date/time in the
// volatile tail after the newest user message. The session renders the history incrementally
// (it only grows between two renders of one session), so the history bytes of the previous request
// are marked unchanged and a request costs its new bytes, not the whole conversation.
#include <limits>

#include "replay/layout.h"

namespace strata {
namespace {

class StrataLayout final : public Layout {
 public:
  StrataLayout(ContextSession session, Provider provider, bool incremental)
      : session_(std::move(session)), provider_(provider), incremental_(incremental) {}

  Status BeginTurn(const ContextInputs& ctx, Message user) override {
    return session_.BeginTurn(ctx, std::move(user.text));
  }

  Status Append(Message message) override { return session_.Append(std::move(message)); }

  Result<RebuiltRequest> Render(const ContextInputs& ctx, const std::string& now,
                                RequestText* text) override {
    TurnInputs turn;
    turn.now = now;
    STRATA_TRY_ASSIGN(auto r, session_.Render(provider_, ctx, turn));
    const RenderedRequest& request = r.request;
    size_t history_at = kNone, history_size = 0;
    for (const auto& span : request.layers) {
      if (span.layer == "history") history_at = span.begin, history_size = span.end - span.begin;
    }
    // The previous request's history, when this layout wrote it at the same offset, is the first
    // part of this one's: the bytes stand where they are.
    bool kept = incremental_ && text->version() == version_ && history_at == history_at_ &&
                history_at != kNone && history_size_ <= history_size;
    // The last segment is the tail (the new input): its bytes are taken from the session, not
    // copied (a huge new message is otherwise held twice).
    std::vector<RequestText::Part> parts;
    size_t at = 0;
    for (size_t i = 0; i + 1 < request.segments.size(); ++i) {
      std::string_view segment = request.segments[i];
      size_t size = segment.size();
      if (kept && at == history_at && size == history_size) {
        parts.push_back({segment.substr(0, history_size_), true});
        segment.remove_prefix(history_size_);
      }
      parts.push_back({segment});
      at += size;
    }
    text->Set(parts, session_.TakeTail(provider_));
    version_ = text->version();
    history_at_ = history_at;
    history_size_ = history_size;
    return RebuiltRequest{request.layers, request.breakpoints};
  }

 private:
  static constexpr size_t kNone = std::numeric_limits<size_t>::max();

  ContextSession session_;
  Provider provider_;
  bool incremental_;
  uint64_t version_ = 0;       // RequestText::version after this layout's last Set
  size_t history_at_ = kNone;  // where the history of that request began
  size_t history_size_ = 0;    // and its size
};

}  // namespace

Result<std::unique_ptr<Layout>> MakeStrataLayout(const LayoutOptions& options) {
  AssembleOptions assemble;
  assemble.long_ttl_breakpoints = options.long_ttl_breakpoints;
  assemble.chat_template = options.chat_template;
  STRATA_TRY_ASSIGN(ContextSession session, ContextSession::Create(assemble));
  return std::unique_ptr<Layout>(
      std::make_unique<StrataLayout>(std::move(session), options.provider, options.incremental));
}

}  // namespace strata
