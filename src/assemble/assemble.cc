// assemble.cc: ContextSession, the per-turn assembler: keeps the baseline the cached prefix was
// rendered from, announces source changes as context epochs at safe boundaries, builds the
// volatile tail, and renders each provider incrementally (cached head and history bytes, a fresh
// tail per request).
#include "strata/assemble.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "assemble/epochs.h"
#include "prompt/canonical_json.h"

namespace strata {
namespace {

constexpr size_t kProviders = 4;

bool IsBlock2Kind(LayerKind k) {
  return k != LayerKind::kPersona && k != LayerKind::kTools && k != LayerKind::kRules &&
         k != LayerKind::kHistory && k != LayerKind::kTail;
}

std::string SkillsText(const std::vector<SkillEntry>& skills) {
  std::vector<const SkillEntry*> sorted;
  sorted.reserve(skills.size());
  for (const auto& s : skills) sorted.push_back(&s);
  std::sort(sorted.begin(), sorted.end(),
            [](const auto* a, const auto* b) { return a->name < b->name; });
  std::string out;
  for (const auto* s : sorted) {
    if (!out.empty()) out += "\n";
    out += "- " + s->name + ": " + s->description;
    if (!s->location.empty()) out += " (" + s->location + ")";
  }
  return out;
}

std::string JoinLines(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& line : lines) {
    if (!out.empty()) out += "\n";
    out += line;
  }
  return out;
}

std::string TrimEnd(std::string_view text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.remove_suffix(1);
  return std::string(text);
}

// The parts a layer contributes, from `inputs`.
std::vector<TextPart> LayerParts(const LayerDecl& layer, const ContextInputs& inputs) {
  auto part = [&](std::string text) {
    return std::vector<TextPart>{{layer.kind, layer.volatility, "", std::move(text)}};
  };
  switch (layer.kind) {
    case LayerKind::kPersona:
      return part(inputs.persona);
    case LayerKind::kRules:
      return part(JoinLines(inputs.rules));
    case LayerKind::kEnvironment:
      return part(inputs.cwd.empty() ? "" : "Working directory: " + inputs.cwd);
    case LayerKind::kInstructions: {
      std::vector<TextPart> parts;
      for (const auto& source : inputs.instructions) {
        if (source.text.empty()) continue;
        parts.push_back({layer.kind, layer.volatility, source.key,
                         "# Instructions from " + source.key + "\n\n" + TrimEnd(source.text)});
      }
      return parts;
    }
    case LayerKind::kSkills: {
      std::string text = SkillsText(inputs.skills);
      return part(text.empty() ? "" : "# Skills\n" + text);
    }
    case LayerKind::kNotes:
      return part(inputs.notes.empty() ? "" : "# Notes\n\n" + TrimEnd(inputs.notes));
    case LayerKind::kPlan:
      return part(inputs.plan.empty() ? "" : "# Plan\n\n" + TrimEnd(inputs.plan));
    case LayerKind::kTools:
    case LayerKind::kHistory:
    case LayerKind::kTail:
      return {};
  }
  return {};
}

// The keyed snapshot entries one epoch-managed layer contributes.
void AddSources(LayerKind kind, const ContextInputs& inputs, SourceSnapshot* out) {
  auto put = [&](const std::string& key, const std::string& value) {
    if (!value.empty()) (*out)[key] = value;
  };
  switch (kind) {
    case LayerKind::kEnvironment:
      put("cwd", inputs.cwd);
      break;
    case LayerKind::kInstructions:
      for (const auto& s : inputs.instructions) put("instructions:" + s.key, s.text);
      break;
    case LayerKind::kSkills:
      put("skills", SkillsText(inputs.skills));
      break;
    case LayerKind::kNotes:
      put("notes", inputs.notes);
      break;
    case LayerKind::kPlan:
      put("plan", inputs.plan);
      break;
    default:
      break;
  }
}

// Every tool call of `m` carries JSON text as its arguments (prompt.h).
Status CheckToolCallArguments(const Message& m) {
  for (const auto& call : m.tool_calls) {
    STRATA_TRY(ParseJsonText(call.arguments_json, "tool call '" + call.id + "' arguments_json"));
  }
  return {};
}

std::string Family(const ContextInputs& inputs) {
  return inputs.model_family.empty() ? inputs.model : inputs.model_family;
}

}  // namespace

struct ContextSession::State {
  AssembleOptions options;
  std::vector<Diagnostic> order_warnings;
  std::vector<LayerDecl> above;  // layers above history, in order
  std::vector<LayerDecl> below;  // layers after history other than the tail
  bool dynamic_head = false;     // a turn layer above history (accepted under kWarn)

  // Conversation.
  std::vector<Message> history;
  size_t boundary = 0;  // one past the last assistant message: the committed history
  uint64_t history_generation = 0;

  // Baseline.
  bool has_baseline = false;
  bool pending_compaction = false;
  uint64_t generation = 0;
  std::string family;
  std::string persona_text;  // block 1 text at the baseline, to detect a real change
  std::map<std::string, std::string> baseline_tools;  // name -> canonical JSON
  ContextInputs baseline_inputs;
  ToolRegistry registry;
  SourceSnapshot announced;  // what the model has been shown: baseline + announced changes
  int epoch = 0;

  std::vector<CacheEvent> events;
  std::vector<uint64_t> event_stamps;  // the state version each event was first rendered at
  uint64_t version = 0;                // bumped by every change of the conversation
  std::map<std::string, uint64_t> signal_shown_at;  // id -> state version when first shown

  struct Cache {
    std::unique_ptr<Renderer> renderer;
    uint64_t head_generation = ~uint64_t{0};
    std::string head_model;
    std::vector<TextPart> head_block2;  // for dynamic heads
    RenderedPart head;
    std::string history;
    size_t committed = 0;
    uint64_t history_generation = ~uint64_t{0};
    RenderedPart tail;
  };
  std::array<Cache, kProviders> caches;

  SourceSnapshot CurrentSources(const ContextInputs& inputs) const {
    SourceSnapshot out;
    for (const auto& layer : above) {
      if (layer.volatility != Volatility::kTurn && IsBlock2Kind(layer.kind)) {
        AddSources(layer.kind, inputs, &out);
      }
    }
    for (const auto& tool : inputs.tools) {
      if (!baseline_tools.count(tool.name)) out["tool:" + tool.name] = CanonicalToolJson(tool);
    }
    return out;
  }

  std::string Block1Text(const ContextInputs& inputs) const {
    std::string out;
    for (const auto& layer : above) {
      if (layer.kind == LayerKind::kPersona || layer.kind == LayerKind::kRules) {
        for (const auto& p : LayerParts(layer, inputs)) out += p.text + '\x1f';
      }
    }
    return out;
  }

  void Rebuild(const ContextInputs& inputs, std::optional<CacheEventReason> reason,
               std::string detail) {
    registry.Register(inputs.tools);
    baseline_inputs = inputs;
    baseline_inputs.tools = registry.Ordered(inputs.tools);
    baseline_tools.clear();
    for (const auto& t : baseline_inputs.tools) baseline_tools[t.name] = CanonicalToolJson(t);
    family = Family(inputs);
    persona_text = Block1Text(inputs);
    announced = CurrentSources(inputs);
    ++generation;
    has_baseline = true;
    pending_compaction = false;
    if (reason) {
      events.push_back({*reason, std::move(detail), -1});
      event_stamps.push_back(0);
    }
  }

  // Every tool schema is JSON text (prompt.h); one byte-equal to the baseline's was checked when
  // the baseline was built, so a steady tool list costs a comparison per tool.
  Status CheckToolSchemas(const ContextInputs& inputs) const {
    for (const auto& tool : inputs.tools) {
      const auto& known = baseline_inputs.tools;
      auto same = std::find_if(known.begin(), known.end(), [&](const ToolDefinition& t) {
        return t.name == tool.name && t.input_schema_json == tool.input_schema_json;
      });
      if (same != known.end()) continue;
      STRATA_TRY(
          ParseJsonText(tool.input_schema_json, "tool '" + tool.name + "' input_schema_json"));
    }
    return {};
  }

  void CheckBaseline(const ContextInputs& inputs) {
    registry.Register(inputs.tools);
    if (!has_baseline) return Rebuild(inputs, std::nullopt, "");
    if (pending_compaction) {
      return Rebuild(inputs, CacheEventReason::kCompaction, "history compacted");
    }
    if (Family(inputs) != family) {
      return Rebuild(inputs, CacheEventReason::kModelFamilySwitch,
                     "model family " + family + " -> " + Family(inputs));
    }
    if (Block1Text(inputs) != persona_text) {
      return Rebuild(inputs, CacheEventReason::kPersonaChanged, "persona or rules changed");
    }
    std::map<std::string, const ToolDefinition*> now;
    for (const auto& t : inputs.tools) now[t.name] = &t;
    for (const auto& t : baseline_inputs.tools) {
      auto it = now.find(t.name);
      if (it == now.end()) {
        return Rebuild(inputs, CacheEventReason::kToolSurfaceChanged,
                       "tool " + t.name + " removed");
      }
      // Byte comparison first (cheap); the canonical bytes decide when the texts differ, so a
      // schema that only spells a number differently (1.0 vs 1) or orders its keys otherwise is
      // the same tool.
      const ToolDefinition& n = *it->second;
      if (n.description == t.description && n.input_schema_json == t.input_schema_json) continue;
      if (CanonicalToolJson(n) != baseline_tools[t.name]) {
        return Rebuild(inputs, CacheEventReason::kToolSurfaceChanged,
                       "tool " + t.name + " redefined");
      }
    }
  }

  PromptHead Head(const ContextInputs& inputs) const {
    PromptHead head;
    head.tools = baseline_inputs.tools;
    for (const auto& layer : above) {
      if (layer.kind == LayerKind::kTools) continue;
      // Epoch-managed layers render from the baseline; a turn layer (accepted with a warning)
      // renders its current value.
      const ContextInputs& from = layer.volatility == Volatility::kTurn ? inputs : baseline_inputs;
      auto parts = LayerParts(layer, from);
      auto& block = layer.volatility == Volatility::kStatic ? head.block1 : head.block2;
      block.insert(block.end(), parts.begin(), parts.end());
    }
    return head;
  }

  std::string TailText(const ContextInputs& inputs, const TurnInputs& turn) {
    std::vector<std::string> lines;
    if (!turn.now.empty()) lines.push_back("date-time: " + turn.now);
    for (const auto& kv : turn.session_state) {
      lines.push_back("session-state: " + kv.key + "=" + kv.value);
    }
    for (const auto& kv : turn.source_state) {
      lines.push_back("source-state: " + kv.key + "=" + kv.value);
    }
    std::vector<ToolDefinition> deferred;
    for (const auto& tool : inputs.tools) {
      if (baseline_tools.count(tool.name) || announced.count("tool:" + tool.name)) continue;
      deferred.push_back(tool);
    }
    for (const auto& tool : registry.Ordered(deferred)) {
      lines.push_back("tool-available: " + CanonicalToolJson(tool));
    }
    for (const auto& signal : turn.signals) {
      auto [it, fresh] = signal_shown_at.emplace(signal.id, version);
      if (fresh || it->second == version) lines.push_back("signal: " + signal.text);
    }
    for (const auto& layer : below) {
      if (layer.kind == LayerKind::kTail) continue;
      for (const auto& p : LayerParts(layer, inputs)) {
        if (!p.text.empty()) lines.push_back(p.text);
      }
    }
    if (lines.empty()) return "";
    std::string out = "<context-tail>\n";
    for (const auto& line : lines) out += line + "\n";
    out += "</context-tail>";
    return out;
  }

  // Head: re-rendered only when the baseline (or the model id, or a turn layer) changed.
  void RefreshHead(const ContextInputs& inputs, const RenderOptions& options, Cache* c) {
    bool stale = c->head_generation != generation || c->head_model != inputs.model;
    PromptHead head;
    if (stale || dynamic_head) {
      head = Head(inputs);
      if (dynamic_head && !stale) {
        bool same = head.block2.size() == c->head_block2.size();
        for (size_t i = 0; same && i < head.block2.size(); ++i) {
          same = head.block2[i].text == c->head_block2[i].text;
        }
        stale = !same;
      }
    }
    if (!stale) return;
    c->head = RenderedPart{};
    c->renderer->RenderHead(head, options, &c->head);
    c->head_generation = generation;
    c->head_model = inputs.model;
    c->head_block2 = head.block2;
  }

  // History: appends what was committed since the last render of this provider.
  void AppendCommitted(Cache* c) {
    if (c->history_generation != history_generation) {
      c->history.clear();
      c->committed = 0;
      c->history_generation = history_generation;
    }
    if (c->committed < boundary) {
      std::span<const Message> chunk(history.data() + c->committed, boundary - c->committed);
      c->renderer->AppendHistory(chunk, c->committed > 0, &c->history);
      c->committed = boundary;
    }
  }

  // The request: head, separator, history and tail, with spans and breakpoints moved to their
  // offsets in the concatenation.
  RenderedRequest Join(Provider provider, const Cache& c) const {
    RenderedRequest r;
    r.provider = provider;
    r.segments.push_back(c.head.bytes);
    r.layers = c.head.spans;
    r.breakpoints = c.head.breakpoints;
    size_t at = c.head.bytes.size();
    r.head_end = at;
    if (boundary > 0) {
      if (c.head.has_items) {
        r.segments.push_back(c.renderer->separator());
        at += c.renderer->separator().size();
      }
      r.segments.push_back(c.history);
      r.layers.push_back({"history", Volatility::kSession, "", at, at + c.history.size()});
      at += c.history.size();
    }
    r.segments.push_back(c.tail.bytes);
    for (auto span : c.tail.spans) {
      span.begin += at;
      span.end += at;
      r.layers.push_back(std::move(span));
    }
    for (auto bp : c.tail.breakpoints) {
      bp.offset += at;
      r.breakpoints.push_back(std::move(bp));
    }
    r.size = at + c.tail.bytes.size();
    if (r.breakpoints.size() > 4) r.breakpoints.resize(4);  // cannot happen: 3 cuts at most
    return r;
  }
};

ContextSession::ContextSession(std::unique_ptr<State> state) : state_(std::move(state)) {}
ContextSession::ContextSession(ContextSession&&) noexcept = default;
ContextSession& ContextSession::operator=(ContextSession&&) noexcept = default;
ContextSession::~ContextSession() = default;

Result<ContextSession> ContextSession::Create(AssembleOptions options,
                                              std::vector<Message> history) {
  auto state = std::make_unique<State>();
  STRATA_TRY_ASSIGN(state->order_warnings,
                    ValidateLayerOrder(options.layers, options.order_policy));
  bool past_history = false;
  for (const auto& layer : options.layers) {
    if (layer.kind == LayerKind::kHistory) {
      past_history = true;
      continue;
    }
    (past_history ? state->below : state->above).push_back(layer);
    if (!past_history && layer.volatility == Volatility::kTurn) state->dynamic_head = true;
  }
  state->registry = ToolRegistry(options.tool_order);
  for (size_t i = 0; i < kProviders; ++i) {
    state->caches[i].renderer = MakeRenderer(static_cast<Provider>(i), options.chat_template);
  }
  for (const auto& m : history) STRATA_TRY(CheckToolCallArguments(m));
  state->options = std::move(options);
  state->history = std::move(history);
  for (size_t i = 0; i < state->history.size(); ++i) {
    if (state->history[i].role == Role::kAssistant) state->boundary = i + 1;
  }
  return ContextSession(std::move(state));
}

Status ContextSession::BeginTurn(const ContextInputs& inputs, std::string user_text) {
  State& s = *state_;
  if (!UnansweredToolCalls(s.history).empty()) {
    return MakeError(ErrorKind::kInvalidArgument,
                     "a tool call of the last assistant message has no result yet; append the "
                     "results before starting a user turn");
  }
  STRATA_TRY(s.CheckToolSchemas(inputs));
  s.CheckBaseline(inputs);
  bool safe = s.history.empty() ||
              (s.history.back().role == Role::kAssistant && s.history.back().tool_calls.empty());
  if (safe) {
    SourceSnapshot current = s.CurrentSources(inputs);
    auto changes = DiffSnapshots(s.announced, current);
    if (!changes.empty()) {
      Message notice;
      notice.role = Role::kContextUpdate;
      notice.text = RenderContextUpdate(changes, ++s.epoch);
      s.history.push_back(std::move(notice));
      s.announced = std::move(current);
    }
  }
  Message user;
  user.role = Role::kUser;
  user.text = std::move(user_text);
  s.history.push_back(std::move(user));
  ++s.version;
  return {};
}

Status ContextSession::Append(Message message) {
  State& s = *state_;
  if (message.role == Role::kUser || message.role == Role::kContextUpdate) {
    return MakeError(ErrorKind::kInvalidArgument,
                     "user messages and context updates enter through BeginTurn");
  }
  if (message.role == Role::kToolResult && !AnswersToolCall(s.history, message.tool_call_id)) {
    return MakeError(ErrorKind::kInvalidArgument,
                     "tool result '" + message.tool_call_id +
                         "' answers no call of the preceding assistant message");
  }
  STRATA_TRY(CheckToolCallArguments(message));
  s.history.push_back(std::move(message));
  ++s.version;
  if (s.history.back().role == Role::kAssistant) s.boundary = s.history.size();
  return {};
}

void ContextSession::Compact(std::vector<Message> history) {
  State& s = *state_;
  s.history = std::move(history);
  s.boundary = 0;
  for (size_t i = 0; i < s.history.size(); ++i) {
    if (s.history[i].role == Role::kAssistant) s.boundary = i + 1;
  }
  ++s.history_generation;
  ++s.version;
  s.pending_compaction = true;
}

const std::vector<CacheEvent>& ContextSession::events() const { return state_->events; }

std::string ContextSession::TakeTail(Provider provider) {
  return std::exchange(state_->caches[static_cast<size_t>(provider)].tail.bytes, std::string());
}

const std::vector<Message>& ContextSession::history() const { return state_->history; }

Result<AssembledRequest> ContextSession::Render(Provider provider, const ContextInputs& inputs,
                                                const TurnInputs& turn) {
  State& s = *state_;
  STRATA_TRY(s.CheckToolSchemas(inputs));
  s.CheckBaseline(inputs);
  for (size_t i = 0; i < s.events.size(); ++i) {
    if (s.events[i].turn < 0) {
      s.events[i].turn = static_cast<int>(s.history.size());
      s.event_stamps[i] = s.version;
    }
  }
  State::Cache& c = s.caches[static_cast<size_t>(provider)];
  RenderOptions options;
  options.model = inputs.model;
  options.max_tokens = s.options.max_tokens;
  options.long_ttl_breakpoints = s.options.long_ttl_breakpoints;
  options.prompt_cache_key = s.options.prompt_cache_key;
  s.RefreshHead(inputs, options, &c);
  s.AppendCommitted(&c);
  // Tail: the new input and the volatile tail, fresh every request.
  std::string tail = s.TailText(inputs, turn);
  std::span<const Message> new_input(s.history.data() + s.boundary, s.history.size() - s.boundary);
  c.tail = RenderedPart{};
  c.renderer->RenderTail(new_input, c.head.has_items || s.boundary > 0, tail, options,
                         c.head.breakpoints.size(), &c.tail);
  AssembledRequest out;
  out.request = s.Join(provider, c);
  for (size_t i = 0; i < s.events.size(); ++i) {
    if (s.event_stamps[i] == s.version) out.events.push_back(s.events[i]);
  }
  out.diagnostics = s.order_warnings;
  return out;
}

}  // namespace strata
