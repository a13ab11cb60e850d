// prefix_fill.h (private): a stand-in for the prompt prefix a log does not record.
//
// Claude Code logs hold neither the system prompt nor the tool definitions, Codex rollouts not the
// tool definitions; replaying them as logged models prompts that are smaller than the ones sent by
// that fixed prefix, so the modelled cache reads are too (and under a model's minimum cacheable
// size nothing is cached at all). The log still measures the prefix: the provider's recorded input
// of the first request is the prefix plus the first conversation messages. The fill is as many
// tokens as that exceeds the modelled first request, as stand-in tool definitions of about 2000
// tokens each ("unlogged_prefix_NN", synthetic descriptions from SynthesizeText) added to every
// context: the later requests carry them unchanged, as they carry the client's own tools, and
// they give the prefix block boundaries where a cache entry written before the log can be found
// (ReplayOptions::warm_prefix_tokens). With --prefix-from the captured tools and system come
// first and the fill makes up only what they lack. No fill when the log records no usage for its
// first request or the modelled request is already as large; when its messages alone prove it
// is (their bytes over Tokenizer::max_token_bytes), the first request is not replayed to measure
// it.
#pragma once

#include <cstddef>

#include "strata/accounting.h"
#include "strata/replay.h"
#include "strata/status.h"
#include "transcripts/transcript.h"

namespace strata {

// Adds the fill to the tools of each context of `transcript` and returns its size in tokens
// (0: none needed). `options` are the replay's (layout, provider, model): the first request is
// replayed with them to measure it. Errors: those of the replay.
Result<size_t> FillUnloggedPrefix(Transcript* transcript, const Tokenizer& tokenizer,
                                  const ReplayOptions& options);

}  // namespace strata
