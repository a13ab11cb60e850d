// llama_context.cc: context creation with an engine's settings, batched prompt decoding, and one
// sequence's KV state as a checkpoint payload (see llama_context.h).
#include "local/llama_context.h"

#include <fmt/format.h>

#include <algorithm>
#include <thread>

namespace strata {
namespace {

Result<ggml_type> KvType(std::string_view name) {
  if (name == "f32") return GGML_TYPE_F32;
  if (name == "f16") return GGML_TYPE_F16;
  if (name == "bf16") return GGML_TYPE_BF16;
  if (name == "q8_0") return GGML_TYPE_Q8_0;
  if (name == "q4_0") return GGML_TYPE_Q4_0;
  return MakeError(ErrorKind::kInvalidArgument, fmt::format("unknown KV cache type '{}'", name));
}

}  // namespace

bool SeparateStreams(const LocalModel& model, int n_seq) {
  const llama_model* m = LlamaModel(model);
  return n_seq > 1 && llama_model_n_swa(m) <= 0 && !llama_model_is_recurrent(m) &&
         !llama_model_is_hybrid(m);
}

Result<LlamaContextPtr> NewLlamaContext(const LocalModel& model, const EngineOptions& engine,
                                        int n_seq) {
  auto type_k = KvType(engine.type_k);
  if (!type_k) return tl::unexpected(type_k.error());
  auto type_v = KvType(engine.type_v);
  if (!type_v) return tl::unexpected(type_v.error());
  llama_context_params p = llama_context_default_params();
  p.n_ctx = engine.n_ctx * static_cast<uint32_t>(n_seq);
  p.n_batch = engine.n_batch;
  p.n_ubatch = std::min(engine.n_ubatch, engine.n_batch);
  p.n_seq_max = static_cast<uint32_t>(n_seq);
  // A stream per sequence (llama-server -np N), or one cache for all: see SeparateStreams.
  p.kv_unified = !SeparateStreams(model, n_seq);
  const int threads =
      engine.n_threads > 0 ? engine.n_threads : std::max(1u, std::thread::hardware_concurrency());
  p.n_threads = threads;
  p.n_threads_batch = engine.n_threads_batch > 0 ? engine.n_threads_batch : threads;
  p.type_k = *type_k;
  p.type_v = *type_v;
  p.flash_attn_type =
      engine.flash_attn ? LLAMA_FLASH_ATTN_TYPE_ENABLED : LLAMA_FLASH_ATTN_TYPE_DISABLED;
  p.no_perf = true;
  llama_context* ctx = llama_init_from_model(LlamaModel(model), p);
  if (ctx == nullptr) {
    return MakeError(
        ErrorKind::kInvalidArgument,
        "llama.cpp refused the context settings (KV types, context size, flash attention)");
  }
  return LlamaContextPtr(ctx);
}

Status DecodeTokenBatches(llama_context* ctx, const EngineOptions& engine,
                          const std::vector<int32_t>& tokens,
                          const std::function<void(size_t, size_t)>& progress,
                          const std::function<bool()>& should_stop) {
  const size_t batch = std::max<size_t>(1, std::min<size_t>(engine.n_batch, llama_n_batch(ctx)));
  for (size_t at = 0; at < tokens.size(); at += batch) {
    if (should_stop && should_stop()) return MakeError(ErrorKind::kIo, "cancelled");
    const size_t n = std::min(batch, tokens.size() - at);
    llama_batch b =
        llama_batch_get_one(const_cast<llama_token*>(tokens.data() + at), static_cast<int32_t>(n));
    if (llama_decode(ctx, b) != 0) return MakeError(ErrorKind::kIo, "llama_decode failed");
    if (progress) progress(at + n, tokens.size());
  }
  return {};
}

std::vector<float> LastTokenLogits(const LocalModel& model, llama_context* ctx) {
  const float* logits = llama_get_logits_ith(ctx, -1);
  const int n_vocab = llama_vocab_n_tokens(llama_model_get_vocab(LlamaModel(model)));
  return std::vector<float>(logits, logits + n_vocab);
}

std::string EncodeSequenceCheckpoint(llama_context* ctx, const CheckpointIdentity& identity,
                                     std::string_view prefix_text,
                                     const std::vector<int32_t>& tokens, double prefill_ms) {
  const size_t size = llama_state_seq_get_size(ctx, 0);
  return EncodeCheckpoint(
      identity, prefix_text, tokens, size,
      [&](char* dst) { llama_state_seq_get_data(ctx, reinterpret_cast<uint8_t*>(dst), size, 0); },
      prefill_ms);
}

bool LoadSequenceCheckpoint(llama_context* ctx, const Checkpoint& checkpoint) {
  const size_t read =
      llama_state_seq_set_data(ctx, reinterpret_cast<const uint8_t*>(checkpoint.payload().data()),
                               checkpoint.payload().size(), 0);
  if (read == 0) {
    llama_memory_clear(llama_get_memory(ctx), true);
    return false;
  }
  return true;
}

}  // namespace strata
