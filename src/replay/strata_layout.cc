// strata_layout.cc: the strata layout for replay (layout.h): the requests strata's own
// ContextSession (assemble.h) builds, stable tools and system blocks first, the date/time in the
// volatile tail after the newest user message.
#include "replay/layout.h"

namespace strata {
namespace {

class StrataLayout final : public Layout {
 public:
  StrataLayout(ContextSession session, Provider provider)
      : session_(std::move(session)), provider_(provider) {}

  Status BeginTurn(const ContextInputs& ctx, const Message& user) override {
    return session_.BeginTurn(ctx, user.text);
  }

  Status Append(const Message& message) override { return session_.Append(message); }

  Result<RebuiltRequest> Render(const ContextInputs& ctx, const std::string& now,
                                std::string buffer) override {
    TurnInputs turn;
    turn.now = now;
    STRATA_TRY_ASSIGN(auto r, session_.Render(provider_, ctx, turn));
    buffer.clear();  // RenderedRequest::Flatten, into the buffer handed in
    buffer.reserve(r.request.size);
    for (std::string_view segment : r.request.segments) buffer.append(segment);
    return RebuiltRequest{std::move(buffer), r.request.layers, r.request.breakpoints};
  }

 private:
  ContextSession session_;
  Provider provider_;
};

}  // namespace

Result<std::unique_ptr<Layout>> MakeStrataLayout(const LayoutOptions& options) {
  AssembleOptions assemble;
  assemble.long_ttl_breakpoints = options.long_ttl_breakpoints;
  assemble.chat_template = options.chat_template;
  STRATA_TRY_ASSIGN(ContextSession session, ContextSession::Create(assemble));
  return std::unique_ptr<Layout>(
      std::make_unique<StrataLayout>(std::move(session), options.provider));
}

}  // namespace strata
