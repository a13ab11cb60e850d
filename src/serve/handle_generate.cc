// handle_generate.cc: one generation request from body to reply: parse (per API), check the
// model name, render and tokenize (400 / 404 / 413 before any model work), wait for a live
// sequence (503 when the queue is full), restore and prefill (prefix_engine.h), generate
// (generation.h), answer in the API's shape (a body, or SSE events flushed per token; a client
// that goes away ends its generation at the next token), store the prompt's checkpoint, count
// and log one line.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <chrono>

#include <llama.h>

#include "local/generation.h"
#include "local/prompt_plan.h"
#include "serve/prefill_progress.h"
#include "serve/request_limits.h"
#include "serve/server_state.h"
#include "wire/json_schema_grammar.h"
#include "wire/request_json.h"
#include "wire/serve_codec.h"

namespace strata::serve {
namespace {

using Clock = std::chrono::steady_clock;

double MsSince(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

struct Job {
  ServerState* state = nullptr;
  const ServeCodec* codec = nullptr;
  ServeRequest request;
  PromptPlan plan;
  PreparedPrompt prepared;
  SequencePool::Lease lease;
  std::unique_ptr<ReplyWriter> writer;
  Clock::time_point started = Clock::now();
  FinishedReply reply;
  PhaseTimes times;
  double first_token_ms = -1;
  int status = 200;
  std::string outcome = "ok";
  // A streamed request with return_progress: writes one progress event.
  std::function<void(const PromptProgress&)> emit_progress;
};

ApiResult<bool> CheckModel(const ServerState& state, const std::string& model) {
  if (state.options.alias.empty() || model.empty() || model == state.options.alias ||
      model == state.model_id)
    return true;
  return tl::unexpected(ApiError{404, "not_found_error",
                                 fmt::format("model '{}' is not served here (this server serves "
                                             "'{}')",
                                             model, state.options.alias),
                                 "model"});
}

// A raw prompt given as token ids: each must be in the vocabulary; the prompt plus one generated
// token must fit the context (413, as TokenizePrompt).
ApiResult<PreparedPrompt> TakePromptTokens(const ServerState& state,
                                           const std::vector<int32_t>& tokens) {
  const int32_t n_vocab = llama_vocab_n_tokens(llama_model_get_vocab(LlamaModel(*state.model)));
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i] < 0 || tokens[i] >= n_vocab)
      return BadRequest(fmt::format("prompt[{}]", i),
                        fmt::format("must be a token id from 0 to {}", n_vocab - 1));
  }
  if (tokens.size() + 1 > state.shared.engine.n_ctx) {
    return tl::unexpected(
        ApiError{413, "request_too_large",
                 fmt::format("the prompt has {} tokens; the context holds {} (prompt plus at least "
                             "one generated token must fit)",
                             tokens.size(), state.shared.engine.n_ctx),
                 "prompt"});
  }
  return PreparedPrompt{tokens, {}};
}

// Everything before model work; the lease is taken last.
ApiResult<std::shared_ptr<Job>> Admit(ServerState& state, const ServeCodec& codec,
                                      const httplib::Request& req) {
  auto job = std::make_shared<Job>();
  job->state = &state;
  job->codec = &codec;
  auto body = ParseBody(req.body);
  if (!body) return tl::unexpected(body.error());
  auto parsed = codec.parse(*body, ClientTextOf(state.options));
  if (!parsed) return tl::unexpected(parsed.error());
  job->request = std::move(*parsed);
  if (auto ok = CheckModel(state, job->request.model); !ok) return tl::unexpected(ok.error());
  if (!job->request.grammar.empty() &&
      !GrammarParses(llama_model_get_vocab(LlamaModel(*state.model)), job->request.grammar))
    return tl::unexpected(ApiError{400, "invalid_request_error",
                                   "grammar: llama.cpp cannot parse it as GBNF (start rule root)",
                                   "grammar"});
  if (auto fits = CheckPromptBytes(LeastPromptBytes(job->request), state.max_token_bytes,
                                   state.shared.engine.n_ctx);
      !fits)
    return tl::unexpected(fits.error());
  const Clock::time_point t_render = Clock::now();
  if (job->request.raw) {
    job->plan.prompt.text = job->request.prompt;  // token ids: no text (nothing is stored)
  } else {
    auto plan = PlanPrompt(*state.chat_template, job->request, state.thinking);
    if (!plan) return tl::unexpected(plan.error());
    job->plan = std::move(*plan);
  }
  job->times.render_ms = MsSince(t_render);
  if (auto fits = CheckPromptBytes(job->plan.prompt.text.size(), state.max_token_bytes,
                                   state.shared.engine.n_ctx);
      !fits)
    return tl::unexpected(fits.error());
  const Clock::time_point t_tokenize = Clock::now();
  auto prepared = job->request.prompt_tokens.empty()
                      ? TokenizePrompt(state.shared, job->plan)
                      : TakePromptTokens(state, job->request.prompt_tokens);
  if (!prepared) return tl::unexpected(prepared.error());
  job->prepared = std::move(*prepared);
  job->times.tokenize_ms = MsSince(t_tokenize);
  SequencePool::Refusal refusal;
  const Clock::time_point t_queue = Clock::now();
  job->lease = state.pool->Acquire(job->prepared.tokens, nullptr, &refusal);
  job->times.queue_ms = MsSince(t_queue);
  if (!job->lease) {
    return tl::unexpected(ApiError{503, "overloaded_error",
                                   fmt::format("all {} sequences are busy and {} requests are "
                                               "waiting: retry later",
                                               state.pool->size(), state.options.max_queue),
                                   ""});
  }
  ResponseMeta meta;
  meta.id = fmt::format("{}-{}", codec.id_prefix, state.next_id++);
  meta.model = job->request.model.empty() ? state.model_id : job->request.model;
  meta.created = std::chrono::duration_cast<std::chrono::seconds>(
                     std::chrono::system_clock::now().time_since_epoch())
                     .count();
  meta.include_usage = job->request.include_usage;
  meta.logprobs = job->request.logprobs;
  meta.slot = job->lease->id;
  meta.prompt = job->request.prompt;
  meta.return_tokens = job->request.return_tokens;
  job->writer = codec.make_writer(meta);
  return job;
}

GenerationLimits LimitsFor(const Job& job) {
  const ServeRequest& r = job.request;
  GenerationLimits limits;
  const ServeOptions& o = job.state->options;
  const uint32_t n_ctx = job.state->shared.engine.n_ctx;
  const int room = static_cast<int>(n_ctx - job.prepared.tokens.size());
  limits.max_tokens = room;
  if (o.n_predict > 0) limits.max_tokens = std::min(limits.max_tokens, o.n_predict);
  if (r.max_tokens > 0) limits.max_tokens = std::min(limits.max_tokens, r.max_tokens);
  limits.stops = r.stop;
  limits.request_stops = r.stop;
  limits.stops.insert(limits.stops.end(), job.plan.prompt.stops.begin(),
                      job.plan.prompt.stops.end());
  SamplingOptions& s = limits.sampling;
  s.temperature = static_cast<float>(r.temperature.value_or(o.temperature));
  s.top_p = static_cast<float>(r.top_p.value_or(o.top_p));
  s.top_k = r.top_k.value_or(o.top_k);
  s.min_p = static_cast<float>(r.min_p.value_or(o.min_p));
  s.repeat_penalty = static_cast<float>(r.repeat_penalty.value_or(o.repeat_penalty));
  s.repeat_last_n = r.repeat_last_n.value_or(o.repeat_last_n);
  if (s.repeat_last_n < 0) s.repeat_last_n = static_cast<int>(n_ctx);  // llama-server's -1
  s.presence_penalty = static_cast<float>(r.presence_penalty.value_or(o.presence_penalty));
  s.frequency_penalty = static_cast<float>(r.frequency_penalty.value_or(o.frequency_penalty));
  s.grammar = r.grammar;
  s.generation_prompt = job.plan.prompt.generation_prompt;
  s.thinking_start = job.plan.prompt.thinking_start;
  s.thinking_end = job.plan.prompt.thinking_end;
  s.reasoning_budget = r.reasoning_budget.value_or(o.reasoning_budget);
  if (r.thinking_budget)  // a bound like the request's token limit: the smaller one wins
    s.reasoning_budget = s.reasoning_budget < 0 ? *r.thinking_budget
                                                : std::min(s.reasoning_budget, *r.thinking_budget);
  s.probs = r.logprobs;
  s.n_probs = r.top_logprobs;
  if (r.seed) {
    s.seed = *r.seed;
  } else if (o.seed >= 0) {
    s.seed = static_cast<uint32_t>(o.seed);
  }
  limits.parse_tool_calls = !r.tools.empty() && r.tool_choice != ToolChoice::kNone;
  return limits;
}

// The phases of the log line (PhaseTimes), then the tools the model was not offered.
std::string PhaseFields(const Job& job) {
  const PhaseTimes& t = job.times;
  std::string out = fmt::format(
      " render_ms={:.1f} tokenize_ms={:.1f} queue_ms={:.1f} lookup_ms={:.1f} restore_ms={:.1f} "
      "restore_read_ms={:.1f} restore_verify_ms={:.1f} restore_load_ms={:.1f} prefill_ms={:.1f} "
      "checkpoint_ms={:.1f} sample_ms={:.1f} store_ms={:.1f}",
      t.render_ms, t.tokenize_ms, t.queue_ms, t.lookup_ms, t.restore_ms(), t.restore_read_ms,
      t.restore_verify_ms, t.restore_load_ms, t.prefill_ms, t.checkpoint_ms, t.sample_ms,
      t.store_ms);
  if (!t.partial.empty()) {
    out += fmt::format(" partial={} partial_shared={} partial_checkpoint={} partial_bytes={}",
                       t.partial, t.partial_shared, t.partial_checkpoint, t.partial_bytes);
  }
  if (!job.request.ignored_tools.empty())
    out += " ignored_tools=" + fmt::format("{}", fmt::join(job.request.ignored_tools, ","));
  if (!job.request.no_effect.empty())
    out += " no_effect=" + fmt::format("{}", fmt::join(job.request.no_effect, ","));
  if (!job.request.left_out.empty())
    out += " left_out=" + fmt::format("{}", fmt::join(job.request.left_out, ","));
  return out;
}

void LogJob(const Job& job) {
  ServerState& state = *job.state;
  const Usage& u = job.reply.usage;
  state.metrics.CountRequest(job.codec->name, job.status);
  state.metrics.CountPrompt(u.cached_tokens, u.restored_tokens, u.prefilled_tokens);
  state.metrics.CountGenerated(u.completion_tokens);
  if (job.first_token_ms >= 0) state.metrics.ObserveFirstToken(job.first_token_ms);
  const std::string line = fmt::format(
      "serve: api={} status={} {} seq={} prompt={} cached={} restored={} prefilled={} "
      "generated={} ttft_ms={:.1f} total_ms={:.1f}{}",
      job.codec->name, job.status, job.outcome, job.lease ? job.lease->id : -1, u.prompt_tokens,
      u.cached_tokens, u.restored_tokens, u.prefilled_tokens, u.completion_tokens,
      std::max(0.0, job.first_token_ms), MsSince(job.started), PhaseFields(job));
  if (state.options.log) state.options.log(line);
}

// Prefill and generation; `hooks` stream the deltas. Fills job.reply.
Status Run(Job& job, GenerationHooks hooks, const std::function<void(const Usage&)>& on_prompt) {
  ServerState& state = *job.state;
  Usage usage;
  // This request's prefill progress: the engine's steps before the tail (PreparePrefix) and
  // while Generate decodes the tail.
  PrefillProgress progress(job.codec->name, job.lease->id, state.options.progress_log_after_ms,
                           state.options.log, job.emit_progress);
  const PrefillProgressFn report = [&progress](size_t done, size_t total) {
    progress.Report(done, total);
  };
  STRATA_TRY_ASSIGN(const size_t tail_from,
                    PreparePrefix(state.shared, job.plan, job.prepared, *job.lease, &usage,
                                  hooks.cancelled, &job.times, report));
  hooks.on_prefill = SegmentProgress(report, tail_from, job.prepared.tokens.size());
  job.reply.usage = usage;
  job.reply.prompt_ms =
      MsSince(job.started) - job.times.render_ms - job.times.tokenize_ms - job.times.queue_ms;
  if (on_prompt) on_prompt(usage);
  const Clock::time_point t_sample = Clock::now();
  hooks.on_first_token = [&job, t_sample] {
    job.first_token_ms = MsSince(job.started);
    job.times.sample_ms = MsSince(t_sample);
  };
  const GenerationLimits limits = LimitsFor(job);
  Status st =
      Generate(*state.model, job.plan.prompt, limits,
               std::span(job.prepared.tokens).subspan(tail_from), *job.lease, hooks, &job.reply);
  job.reply.server_capped =
      job.reply.finish == FinishReason::kLength && limits.max_tokens == state.options.n_predict &&
      (job.request.max_tokens <= 0 || job.request.max_tokens > limits.max_tokens);
  if (job.reply.server_capped) job.outcome = "ok capped";  // the log line says -n ended it
  job.reply.usage.prompt_tokens = usage.prompt_tokens;
  job.reply.predicted_ms = MsSince(t_sample);
  // llama-server's tokens_cached: the prompt and the reply's tokens decoded (all sampled but the
  // last). Counted from the reply, not the sequence, which a client that went away may have left
  // with tokens sampled after it (a text prompt's sequence is trimmed back to the prompt by Store).
  const size_t sampled = job.reply.sampled_tokens;
  job.reply.tokens_held = std::min(job.lease->tokens.size(),
                                   job.prepared.tokens.size() + (sampled > 0 ? sampled - 1 : 0));
  return st;
}

// The whole prompt's checkpoint, after the reply; a prompt of token ids has no text to key it by
// and stays live only.
void Store(Job& job) {
  if (!job.request.prompt_tokens.empty()) return;
  StorePrompt(job.state->shared, job.plan, job.prepared, *job.lease, &job.times);
}

void Stream(const std::shared_ptr<Job>& job, httplib::Response& res) {
  res.set_header("Cache-Control", "no-cache");
  res.set_chunked_content_provider("text/event-stream", [job](size_t, httplib::DataSink& sink) {
    bool alive = true;
    auto write = [&](const std::string& s) {
      if (alive && !s.empty()) alive = sink.write(s.data(), s.size());
      return alive;
    };
    if (job->request.return_progress)
      job->emit_progress = [&](const PromptProgress& p) { write(job->writer->Progress(p)); };
    GenerationHooks hooks;
    hooks.cancelled = [&] { return !alive; };
    hooks.on_deltas = [&](const std::vector<ReplyDelta>& deltas) {
      for (const ReplyDelta& d : deltas) write(job->writer->Delta(d));
      return alive;
    };
    Status st = Run(*job, hooks, [&](const Usage& u) { write(job->writer->Start(u)); });
    if (st) write(job->writer->Finish(job->reply));
    if (!st) job->outcome = alive ? "error=" + st.error().message : "cancelled";
    if (!alive) job->status = 499;  // the client closed the connection
    sink.done();
    if (st) Store(*job);
    LogJob(*job);
    return true;
  });
}

}  // namespace

void HandleGenerate(ServerState& state, const ServeCodec& codec, const httplib::Request& req,
                    httplib::Response& res) {
  auto admitted = Admit(state, codec, req);
  if (!admitted) {
    SendError(codec, admitted.error(), res);
    state.metrics.CountRequest(codec.name, admitted.error().status);
    if (state.options.log)
      state.options.log(fmt::format("serve: api={} status={} error={}", codec.name,
                                    admitted.error().status, admitted.error().message));
    return;
  }
  std::shared_ptr<Job> job = *admitted;
  if (!job->request.ignored_tools.empty())
    res.set_header("X-Strata-Ignored-Tools",
                   fmt::format("{}", fmt::join(job->request.ignored_tools, ", ")));
  if (!job->request.no_effect.empty())
    res.set_header("X-Strata-No-Effect-Members",
                   fmt::format("{}", fmt::join(job->request.no_effect, ", ")));
  if (!job->request.left_out.empty())
    res.set_header("X-Strata-Left-Out", fmt::format("{}", fmt::join(job->request.left_out, ", ")));
  if (job->request.stream) return Stream(job, res);
  Status st = Run(*job, {}, nullptr);
  if (!st) {
    job->status = 500;
    job->outcome = "error=" + st.error().message;
    SendError(codec, {500, "api_error", st.error().message, ""}, res);
  } else {
    res.set_content(job->writer->Body(job->reply).dump(), "application/json");
    Store(*job);
  }
  LogJob(*job);
}

}  // namespace strata::serve
