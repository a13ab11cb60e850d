// llama_completion_serve.cc: the raw-prompt codecs (serve_codec.h): llama-server's own
// POST /completion (tools/server/README.md of the pinned llama.cpp: `prompt`, `n_predict`,
// `stream`, `cache_prompt`, `n_probs`, ...; the reply with tokens_cached, timings and
// completion_probabilities), and OpenAI's legacy POST /v1/completions (`prompt`, `max_tokens`,
// `stream`, `logprobs`; a `text_completion` object). The prompt goes to the model as it is, with
// no chat template, through the same prefix engine as the chat APIs.
#include <fmt/format.h>

#include <algorithm>

#include "wire/request_json.h"
#include "wire/request_members.h"
#include "wire/serve_codec.h"

namespace strata::serve {
namespace {

using nlohmann::json;

// A prompt: a string, token ids, or an array holding one of these (llama-server and OpenAI take
// several prompts in one request and answer each; this server answers one).
ApiResult<bool> ReadPrompt(const json* prompt, ServeRequest* out) {
  if (prompt == nullptr || prompt->is_null())
    return BadRequest("prompt", "is required (a string or an array of token ids)");
  const json* p = prompt;
  if (p->is_array() && p->size() == 1 && ((*p)[0].is_string() || (*p)[0].is_array())) p = &(*p)[0];
  if (p->is_string()) {
    out->prompt = p->get<std::string>();
  } else if (p->is_array()) {
    for (size_t i = 0; i < p->size(); ++i) {
      if (!(*p)[i].is_number_integer()) {
        return BadRequest(
            fmt::format("prompt[{}]", i),
            (*p)[i].is_string()
                ? "one prompt per request: strata serve answers a single prompt (send the others "
                  "as requests of their own)"
                : "must be a token id (an integer)");
      }
      out->prompt_tokens.push_back((*p)[i].get<int32_t>());
    }
  } else {
    return BadRequest("prompt", "must be a string or an array of token ids");
  }
  if (out->prompt.empty() && out->prompt_tokens.empty()) return BadRequest("prompt", "is empty");
  out->raw = true;
  return true;
}

// The members both raw-prompt APIs refuse: sampler settings common has no place for here, and
// what this server does not do.
using enum MemberRule;
constexpr const char* kNoSampler = "this sampler is not offered by strata serve";
constexpr MemberSpec kRefusedCommon[] = {
    {"logit_bias", kRefused, "logit biases are not supported by strata serve"},
    {"cache_prompt", kRefused, "every prompt prefix is reused; it cannot be turned off", IsTrue},
    {"n_keep", kRefused, "the context is never shifted (a prompt over it is refused, 413)"},
    {"n_discard", kRefused, "the context is never shifted"},
    {"n_indent", kRefused, "not supported by strata serve"},
    {"typical_p", kRefused, kNoSampler},
    {"dynatemp_range", kRefused, kNoSampler},
    {"dynatemp_exponent", kRefused, kNoSampler},
    {"mirostat", kRefused, kNoSampler},
    {"mirostat_tau", kRefused, kNoSampler},
    {"mirostat_eta", kRefused, kNoSampler},
    {"dry_multiplier", kRefused, kNoSampler},
    {"dry_base", kRefused, kNoSampler},
    {"dry_allowed_length", kRefused, kNoSampler},
    {"dry_penalty_last_n", kRefused, kNoSampler},
    {"dry_sequence_breakers", kRefused, kNoSampler},
    {"xtc_probability", kRefused, kNoSampler},
    {"xtc_threshold", kRefused, kNoSampler},
    {"samplers", kRefused, "the sampler chain is common's default"},
    {"min_keep", kRefused, kNoSampler},
    {"ignore_eos", kRefused, "generation always ends at an end-of-generation token", IsFalse},
    {"t_max_predict_ms", kRefused, "generation is bounded by tokens (-n, n_predict), not time"},
    {"id_slot", kRefused,
     "the sequence is chosen by the longest reused prefix (id_slot must be -1)",
     [](const json& v) { return v.is_number_integer() && v.get<int64_t>() == -1; }},
    {"timings_per_token", kRefused, "timings are sent with the last event only", IsFalse},
    {"post_sampling_probs", kRefused,
     "probabilities are those of the logits before sampling (post_sampling_probs must be false)",
     IsFalse},
    {"response_fields", kRefused, "the whole response is sent"},
    {"lora", kRefused, "LoRA adapters are not supported by strata serve"},
    {"image_data", kRefused, "text models only"},
    {"multimodal_data", kRefused, "text models only"},
    {"n_cmpl", kRefused, "one completion per request (n_cmpl must be 1)", IsOne},
};

// llama-server's /completion members (tools/server/README.md).
constexpr MemberSpec kCompletionMembers[] = {
    {"prompt", kHonoured},        {"model", kHonoured},           {"n_predict", kHonoured},
    {"max_tokens", kHonoured},    {"stream", kHonoured},          {"stop", kHonoured},
    {"grammar", kHonoured},       {"json_schema", kHonoured},     {"n_probs", kHonoured},
    {"return_tokens", kHonoured}, {"return_progress", kHonoured},
};

// OpenAI's create-completion members.
constexpr MemberSpec kOaiMembers[] = {
    {"prompt", kHonoured},
    {"model", kHonoured},
    {"max_tokens", kHonoured},
    {"stream", kHonoured},
    {"stream_options", kHonoured},
    {"stop", kHonoured},
    {"logprobs", kHonoured},
    {"return_progress", kHonoured},  // llama-server's
    {"n", kRefused, "one choice is generated per request (n must be 1)", IsOne},
    {"best_of", kRefused, "one completion is generated per request (best_of must be 1)", IsOne},
    {"echo", kRefused, "the prompt is not echoed back (echo must be false)", IsFalse},
    {"suffix", kRefused, "insertion after a suffix is not supported by strata serve"},
    {"n_probs", kRefused,
     "on /v1/completions send OpenAI's logprobs (0 to 5); n_probs is /completion's"},
    {"user", kNoEffect, "an end-user id for the provider's abuse monitoring"},
};

// The token limit under llama-server's n_predict (falling back to max_tokens, as it does); -1 or
// absent: the server's -n.
ApiResult<bool> ReadNPredict(JsonObjectReader& r, ServeRequest* out) {
  int64_t n = 0;
  const bool has_n = Given(r, "n_predict");
  if (has_n || Given(r, "max_tokens"))
    STRATA_API_TRY(r.Int(has_n ? "n_predict" : "max_tokens", &n, -1, 1 << 24));
  out->max_tokens = n > 0 ? static_cast<int>(n) : 0;
  if (has_n && n == 0) return BadRequest("n_predict", "must be -1 (no limit) or at least 1");
  return true;
}

ApiResult<ServeRequest> ParseCompletion(const json& body, const ClientTextOptions&) {
  ServeRequest out;
  out.api = Api::kOpenAiChat;  // errors in OpenAI's shape, as llama-server's
  if (auto ok = CheckMembers(body, {kCompletionMembers, kRefusedCommon, SamplingMembers()},
                             "/completion", &out.no_effect);
      !ok)
    return tl::unexpected(ok.error());
  JsonObjectReader r(body, "", {}, JsonStrictness::kLenient);
  STRATA_API_TRY(r.String("model", &out.model));
  if (auto ok = ReadPrompt(r.Raw("prompt"), &out); !ok) return tl::unexpected(ok.error());
  STRATA_API_TRY(r.Bool("stream", &out.stream));
  STRATA_API_TRY(ReadSampling(r, "", "", &out));
  if (auto ok = ReadNPredict(r, &out); !ok) return tl::unexpected(ok.error());
  if (const json* schema = r.Raw("json_schema"); schema != nullptr && !schema->is_null()) {
    if (auto ok = SchemaGrammar(*schema, "json_schema", &out); !ok)
      return tl::unexpected(ok.error());
  }
  if (auto ok = ReadGrammar(r, &out); !ok) return tl::unexpected(ok.error());
  int64_t n_probs = 0;
  if (Given(r, "n_probs")) STRATA_API_TRY(r.Int("n_probs", &n_probs, 0, 1 << 20));
  out.logprobs = n_probs > 0;
  out.top_logprobs = static_cast<int>(n_probs);
  if (Given(r, "return_tokens")) STRATA_API_TRY(r.Bool("return_tokens", &out.return_tokens));
  STRATA_API_TRY(r.Bool("return_progress", &out.return_progress));
  return out;
}

ApiResult<ServeRequest> ParseOaiCompletions(const json& body, const ClientTextOptions&) {
  ServeRequest out;
  out.api = Api::kOpenAiChat;
  if (auto ok = CheckMembers(body, {kOaiMembers, kRefusedCommon, SamplingMembers()}, "Completions",
                             &out.no_effect);
      !ok)
    return tl::unexpected(ok.error());
  JsonObjectReader r(body, "", {}, JsonStrictness::kLenient);
  STRATA_API_TRY(r.String("model", &out.model));
  if (auto ok = ReadPrompt(r.Raw("prompt"), &out); !ok) return tl::unexpected(ok.error());
  STRATA_API_TRY(r.Bool("stream", &out.stream));
  if (const json* so = r.Raw("stream_options"); so != nullptr && so->is_object())
    out.include_usage = so->value("include_usage", false);
  STRATA_API_TRY(ReadSampling(r, "max_tokens", "", &out));
  // OpenAI: logprobs 0 to 5, the likeliest candidates per token (0: the sampled token's only).
  int64_t logprobs = -1;
  if (Given(r, "logprobs")) STRATA_API_TRY(r.Int("logprobs", &logprobs, 0, 5));
  out.logprobs = logprobs >= 0;
  out.top_logprobs = static_cast<int>(std::max<int64_t>(logprobs, 0));
  STRATA_API_TRY(r.Bool("return_progress", &out.return_progress));
  return out;
}

// ---- Replies ----

const char* StopType(const FinishedReply& reply) {
  if (reply.finish == FinishReason::kLength) return "limit";
  return reply.stop_sequence.empty() ? "eos" : "word";
}

json Timings(const FinishedReply& reply) {
  const Usage& u = reply.usage;
  auto per_token = [](double ms, size_t n) { return n == 0 ? 0.0 : ms / static_cast<double>(n); };
  auto per_second = [](double ms, size_t n) {
    return ms <= 0 ? 0.0 : 1e3 * static_cast<double>(n) / ms;
  };
  return {{"cache_n", u.cached_tokens},
          {"prompt_n", u.prefilled_tokens},
          {"prompt_ms", reply.prompt_ms},
          {"prompt_per_token_ms", per_token(reply.prompt_ms, u.prefilled_tokens)},
          {"prompt_per_second", per_second(reply.prompt_ms, u.prefilled_tokens)},
          {"predicted_n", u.completion_tokens},
          {"predicted_ms", reply.predicted_ms},
          {"predicted_per_token_ms", per_token(reply.predicted_ms, u.completion_tokens)},
          {"predicted_per_second", per_second(reply.predicted_ms, u.completion_tokens)}};
}

// llama-server's /completion: partial events {content, tokens, stop: false, ...} and a last one
// with the whole result (its content empty: the events carried it), no [DONE].
class CompletionWriter : public ReplyWriter {
 public:
  explicit CompletionWriter(ResponseMeta meta) : meta_(std::move(meta)) {}

  std::string Start(const Usage& prompt) override {
    prompt_tokens_ = prompt.prompt_tokens;
    return "";
  }

  std::string Delta(const ReplyDelta& d) override {
    if (d.content.empty() && d.logprobs.empty()) return "";
    predicted_ += d.logprobs.empty() ? 1 : d.logprobs.size();
    json tokens = json::array();
    for (const TokenLogprob& e : d.logprobs) tokens.push_back(e.sampled.id);
    json event{{"index", 0},
               {"content", d.content},
               {"tokens", tokens},
               {"stop", false},
               {"id_slot", meta_.slot},
               {"tokens_predicted", predicted_},
               {"tokens_evaluated", prompt_tokens_}};
    if (meta_.logprobs) event["completion_probabilities"] = LogprobsJson(d.logprobs);
    return SseEvent("", event);
  }

  std::string Progress(const PromptProgress& p) override {
    return SseEvent("", {{"index", 0},
                         {"content", ""},
                         {"tokens", json::array()},
                         {"stop", false},
                         {"id_slot", meta_.slot},
                         {"tokens_predicted", 0},
                         {"tokens_evaluated", p.total},
                         {"prompt_progress", ProgressJson(p)}});
  }

  std::string Finish(const FinishedReply& reply) override {
    json last = Whole(reply);
    last["content"] = "";
    last["tokens"] = json::array();
    last.erase("completion_probabilities");
    return SseEvent("", last);
  }

  json Body(const FinishedReply& reply) override { return Whole(reply); }

 private:
  json Whole(const FinishedReply& reply) const {
    json out{{"index", 0},
             {"content", reply.reply.content},
             {"tokens", meta_.return_tokens ? json(reply.tokens) : json::array()},
             {"id_slot", meta_.slot},
             {"stop", true},
             {"model", meta_.model},
             {"tokens_predicted", reply.usage.completion_tokens},
             {"tokens_evaluated", reply.usage.prompt_tokens},
             {"prompt", meta_.prompt},
             {"has_new_line", reply.reply.content.find('\n') != std::string::npos},
             {"truncated", false},
             {"stop_type", StopType(reply)},
             {"stopping_word", reply.stop_sequence},
             {"tokens_cached", reply.tokens_held},
             {"timings", Timings(reply)}};
    if (meta_.logprobs) out["completion_probabilities"] = LogprobsJson(reply.logprobs);
    return out;
  }

  ResponseMeta meta_;
  size_t prompt_tokens_ = 0, predicted_ = 0;
};

// OpenAI's legacy logprobs: {tokens, token_logprobs, top_logprobs: [{token: logprob}],
// text_offset} (offsets into the completion's text).
json LegacyLogprobs(const std::vector<TokenLogprob>& entries, size_t* offset) {
  json tokens = json::array(), logprobs = json::array(), top = json::array(),
       offsets = json::array();
  for (const json& e : LogprobsJson(entries)) {
    tokens.push_back(e["token"]);
    logprobs.push_back(e["logprob"]);
    json candidates = json::object();
    for (const json& t : e["top_logprobs"])
      candidates[t["token"].get<std::string>()] = t["logprob"];
    top.push_back(std::move(candidates));
    offsets.push_back(*offset);
    *offset += e["bytes"].size();
  }
  return {{"tokens", tokens},
          {"token_logprobs", logprobs},
          {"top_logprobs", top},
          {"text_offset", offsets}};
}

const char* FinishName(const FinishedReply& reply) {
  return reply.finish == FinishReason::kLength ? "length" : "stop";
}

json UsageJson(const Usage& u) {
  return {{"prompt_tokens", u.prompt_tokens},
          {"completion_tokens", u.completion_tokens},
          {"total_tokens", u.prompt_tokens + u.completion_tokens},
          {"prompt_tokens_details", {{"cached_tokens", u.cached_tokens}}}};
}

// OpenAI's text_completion object; streamed, chunks of the same object with finish_reason null,
// a last chunk with the finish reason (and usage), then [DONE].
class OaiCompletionsWriter : public ReplyWriter {
 public:
  explicit OaiCompletionsWriter(ResponseMeta meta) : meta_(std::move(meta)) {}

  std::string Start(const Usage&) override { return ""; }

  std::string Delta(const ReplyDelta& d) override {
    if (d.content.empty() && d.logprobs.empty()) return "";
    json logprobs = meta_.logprobs ? LegacyLogprobs(d.logprobs, &offset_) : json();
    return SseEvent("", Chunk(d.content, std::move(logprobs), nullptr));
  }

  std::string Progress(const PromptProgress& p) override {
    json chunk = Chunk("", nullptr, nullptr);
    chunk["prompt_progress"] = ProgressJson(p);
    return SseEvent("", chunk);
  }

  std::string Finish(const FinishedReply& reply) override {
    json last = Chunk("", nullptr, FinishName(reply));
    if (meta_.include_usage) last["usage"] = UsageJson(reply.usage);
    last["timings"] = Timings(reply);
    return SseEvent("", last) + "data: [DONE]\n\n";
  }

  json Body(const FinishedReply& reply) override {
    size_t offset = 0;
    json logprobs = meta_.logprobs ? LegacyLogprobs(reply.logprobs, &offset) : json();
    json body = Chunk(reply.reply.content, std::move(logprobs), FinishName(reply));
    body["usage"] = UsageJson(reply.usage);
    body["timings"] = Timings(reply);
    return body;
  }

 private:
  json Chunk(const std::string& text, json logprobs, const char* finish) const {
    json choice{{"text", text}, {"index", 0}, {"logprobs", std::move(logprobs)}};
    choice["finish_reason"] = finish == nullptr ? json() : json(finish);
    return {{"id", meta_.id},
            {"object", "text_completion"},
            {"created", meta_.created},
            {"model", meta_.model},
            {"system_fingerprint", "strata"},
            {"choices", json::array({std::move(choice)})}};
  }

  ResponseMeta meta_;
  size_t offset_ = 0;
};

std::unique_ptr<ReplyWriter> MakeCompletionWriter(const ResponseMeta& meta) {
  return std::make_unique<CompletionWriter>(meta);
}
std::unique_ptr<ReplyWriter> MakeOaiCompletionsWriter(const ResponseMeta& meta) {
  return std::make_unique<OaiCompletionsWriter>(meta);
}

// OpenAI's error body, which llama-server uses for these endpoints too.
json ErrorBodyOf(const ApiError& error) {
  json e{{"message", error.message}, {"type", error.type}, {"code", error.status}};
  e["param"] = error.param.empty() ? json() : json(error.param);
  return {{"error", e}};
}

constexpr const char* kCompletionRoutes[] = {"/completion", "/completions"};
constexpr const char* kOaiRoutes[] = {"/v1/completions"};

}  // namespace

const ServeCodec kCompletionServeCodec = {
    .api = Api::kOpenAiChat,
    .name = "completion",
    .id_prefix = "cmpl",
    .routes = kCompletionRoutes,
    .parse = ParseCompletion,
    .make_writer = MakeCompletionWriter,
    .error_body = ErrorBodyOf,
};

const ServeCodec kOaiCompletionsServeCodec = {
    .api = Api::kOpenAiChat,
    .name = "completions",
    .id_prefix = "cmpl",
    .routes = kOaiRoutes,
    .parse = ParseOaiCompletions,
    .make_writer = MakeOaiCompletionsWriter,
    .error_body = ErrorBodyOf,
};

}  // namespace strata::serve
