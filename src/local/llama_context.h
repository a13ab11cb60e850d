// llama_context.h: the llama.cpp context settings and prompt decoding that every local engine
// shares (the LocalEngine's context and the benchmarks' own), and the save/restore
// of one sequence's KV state as a checkpoint payload.
#pragma once

#include <llama.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "local/local_model.h"
#include "strata/checkpoint.h"
#include "strata/status.h"

namespace strata {

struct LlamaContextFree {
  void operator()(llama_context* ctx) const { llama_free(ctx); }
};
using LlamaContextPtr = std::unique_ptr<llama_context, LlamaContextFree>;

// Whether a context of `n_seq` sequences of `model` keeps each sequence in its own KV stream, as
// llama-server does with -np N (kv_unified off): a token then attends over its own sequence's
// cells only, where a unified cache makes every token's attention (and its mask) run over the
// cells of all sequences. True for n_seq > 1 when the model's memory is a plain KV cache; a
// sliding-window, recurrent or hybrid memory keeps one unified cache (its sequence state is not
// of the layout stream_state.h converts).
bool SeparateStreams(const LocalModel& model, int n_seq);

// A context with `engine`'s settings holding `n_seq` sequences (ids 0..n_seq-1) of engine.n_ctx
// tokens each (n_seq * n_ctx cells): one stream per sequence when SeparateStreams, else one
// unified KV cache. Errors: kInvalidArgument for an unknown KV type or settings llama.cpp
// refuses.
Result<LlamaContextPtr> NewLlamaContext(const LocalModel& model, const EngineOptions& engine,
                                        int n_seq = 1);

// Decodes `tokens` at positions [n_past, n_past + size) in batches of at most n_batch (llama.cpp
// lowers n_batch to the context size; a larger decode call would abort in ggml), reporting
// progress after each batch. `should_stop` (may be empty) is polled between batches: a true
// answer stops with kIo "cancelled". Errors: kIo when llama_decode fails.
Status DecodeTokenBatches(llama_context* ctx, const EngineOptions& engine,
                          const std::vector<int32_t>& tokens,
                          const std::function<void(size_t, size_t)>& progress,
                          const std::function<bool()>& should_stop = {});

// The logits after the last decoded token (vocabulary size).
std::vector<float> LastTokenLogits(const LocalModel& model, llama_context* ctx);

// The file image of a checkpoint holding sequence 0 of `ctx` (which must hold exactly `tokens`).
std::string EncodeSequenceCheckpoint(llama_context* ctx, const CheckpointIdentity& identity,
                                     std::string_view prefix_text,
                                     const std::vector<int32_t>& tokens, double prefill_ms);

// Loads a verified checkpoint's state into sequence 0 of `ctx`; false (and the sequence cleared)
// when llama.cpp refuses the bytes.
bool LoadSequenceCheckpoint(llama_context* ctx, const Checkpoint& checkpoint);

}  // namespace strata
