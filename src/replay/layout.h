// layout.h (private): how replay rebuilds a request from the conversation so far.
//
// A Layout receives the conversation as the transcript gives it (a user message starts a turn,
// assistant answers and tool results follow) and renders the request a harness with that layout
// would have sent. One file per layout: strata_layout.cc (strata's ContextSession), naive_layout.cc
// (date/time and cwd at the top of the system prompt). A new layout is a new file and one entry in
// MakeLayout.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "replay/request_text.h"
#include "strata/assemble.h"
#include "strata/prompt.h"
#include "strata/render.h"
#include "strata/replay.h"
#include "strata/status.h"

namespace strata {

// What a layout renders beside the bytes: layer spans and breakpoints, offsets into the bytes.
struct RebuiltRequest {
  LayerMap spans;
  std::vector<Breakpoint> breakpoints;
};

struct LayoutOptions {
  Provider provider = Provider::kAnthropic;
  const ChatTemplate* chat_template = nullptr;  // for Provider::kChatTemplate; outlives the layout
  int long_ttl_breakpoints = 0;                 // anthropic: the first N breakpoints get 1 h
  // Let the layout mark bytes it knows are unchanged (RequestText::Part); false: every byte is
  // compared with the previous request (the from-scratch check, transcript_replay.h).
  bool incremental = true;
};

class Layout {
 public:
  virtual ~Layout() = default;
  // A user message starts a turn, with the harness context `ctx` current. Messages are taken by
  // value: a replay that owns its transcript moves them in (a huge message held once).
  virtual Status BeginTurn(const ContextInputs& ctx, Message user) = 0;
  // An assistant answer or a tool result.
  virtual Status Append(Message message) = 0;
  // The request for the conversation so far, the clock reading `now` (RFC 3339): its bytes are
  // written to `text` (which holds the previous request's, from this layout or another one), its
  // spans and breakpoints returned.
  virtual Result<RebuiltRequest> Render(const ContextInputs& ctx, const std::string& now,
                                        RequestText* text) = 0;
};

Result<std::unique_ptr<Layout>> MakeStrataLayout(const LayoutOptions& options);
std::unique_ptr<Layout> MakeNaiveLayout(const LayoutOptions& options);
Result<std::unique_ptr<Layout>> MakeLayout(ReplayLayout kind, const LayoutOptions& options);

}  // namespace strata
