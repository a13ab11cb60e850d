// transcript_replay.h (private): replay of a Transcript already read (replay.h's ReplayLog reads
// the log first); tests and benchmarks build transcripts in memory and call this.
#pragma once

#include "strata/accounting.h"
#include "strata/replay.h"
#include "strata/status.h"
#include "transcripts/transcript.h"

namespace strata {

// How each request is processed. kIncremental (what replay does): work in the bytes and tokens a
// request adds to the previous one (replay.cc). kFromScratch: every request rendered, compared,
// cut and tokenized whole and the cache model told nothing of the previous request; the same
// report, quadratic time: the check of the incremental path (tests/replay).
enum class ReplayPath { kIncremental, kFromScratch };

// Errors: kInvalidArgument when the transcript's messages cannot form a conversation (e.g. a tool
// result for an unknown call), errors from assembly or tokenization.
Result<ReplayReport> Replay(const Transcript& transcript, const Tokenizer& tokenizer,
                            const ReplayOptions& options,
                            ReplayPath path = ReplayPath::kIncremental);
// The same on a transcript the replay may change: the unlogged prefix is filled in place rather
// than in a copy (a log's messages held once).
Result<ReplayReport> Replay(Transcript&& transcript, const Tokenizer& tokenizer,
                            const ReplayOptions& options,
                            ReplayPath path = ReplayPath::kIncremental);

}  // namespace strata
