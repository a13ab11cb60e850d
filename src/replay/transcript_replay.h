// transcript_replay.h (private): replay of a Transcript already read (replay.h's ReplayLog reads
// the log first); tests and benchmarks build transcripts in memory and call this.
#pragma once

#include "strata/replay.h"
#include "strata/status.h"
#include "strata/tokenizer.h"
#include "transcripts/transcript.h"

namespace strata {

// Errors: kInvalidArgument when the transcript's messages cannot form a conversation (e.g. a tool
// result for an unknown call), errors from assembly or tokenization.
Result<ReplayReport> Replay(const Transcript& transcript, const Tokenizer& tokenizer,
                            const ReplayOptions& options);

}  // namespace strata
