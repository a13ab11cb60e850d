// strata_transcript.h (private): strata's own JSONL transcript format, read strictly and written
// back (format: docs/replay.md, "strata").
//
// One event object per line: context, user, assistant, tool_result. The reader is strict
// (base/json_reader.h kStrict): a member the format does not define is an error naming the closest
// valid one, and a member of the wrong type is an error naming its path (`tool_calls[0].id`),
// both at path:line.
#pragma once

#include <string>
#include <string_view>

#include "strata/status.h"
#include "transcripts/transcript.h"

namespace strata {

Result<Transcript> ParseStrataTranscript(std::string_view jsonl, std::string_view path);

// Writes `transcript` in strata's JSONL format (ParseStrataTranscript reads it back).
std::string FormatStrataTranscript(const Transcript& transcript);

}  // namespace strata
