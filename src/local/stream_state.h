// stream_state.h: one sequence's llama.cpp state (llama_state_seq_get_data's bytes) between a
// context with one KV stream per sequence and the single-stream form checkpoints hold.
//
// For a plain KV cache (not sliding-window, recurrent or hybrid: SeparateStreams in
// llama_context.h) the bytes are (llama-context.cpp state_seq_get_data and llama-kv-cache.cpp
// state_write of the pinned source): u32 magic, i32 sequence id, u32 stream count S, then per
// stream a u32 cell count and, when it is not 0, that stream's cells (positions, then the K and V
// rows). A context with one stream per sequence keeps sequence k in stream k, so a sequence's
// state is
//     magic, id, S, 0 (k times), count, cells, 0 (S - k - 1 times)
// and a unified cache (or a one-sequence context) writes S = 1: magic, id, 1, count, cells.
// llama.cpp refuses a state whose S differs from the context's. Checkpoints always hold the
// single-stream form, so one written by `strata serve --parallel 8` loads into `strata chat`'s
// one-sequence context and the other way round.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace strata {

// The single-stream form of `state`, written by a context of `n_stream` streams for the sequence
// in stream `stream` (< n_stream). nullopt when `state` is not of that layout (too short, another
// stream count, a count other than 0 in another stream's place).
std::optional<std::string> ToSingleStream(std::string_view state, uint32_t n_stream,
                                          uint32_t stream);

// The bytes a context of `n_stream` streams reads into stream `stream` (< n_stream) from a
// single-stream `state`. nullopt when `state` is not single-stream.
std::optional<std::string> FromSingleStream(std::string_view state, uint32_t n_stream,
                                            uint32_t stream);

}  // namespace strata
