// swe_agent_trajectory.h (private): reads a SWE-agent trajectory (`<instance_id>.traj`, one JSON
// document) into a Transcript (format: docs/replay.md, "swe-agent").
//
// `history` is the conversation the agent kept: the system message becomes the persona, user
// messages (the problem statement, demonstrations, observations of text-parsed actions) user
// messages, each assistant message one model request (its `tool_calls`, when the agent used
// function calling), and `tool` messages the results of the calls in their `tool_call_ids`. The
// file records no usage per request: only `info.model_stats.tokens_sent` (the input of all calls
// together) and `api_calls`; the importer says so in a warning that gives both, and no turn has
// recorded figures. Lenient (base/json_reader.h kLenient).
#pragma once

#include <string_view>

#include "strata/status.h"
#include "transcripts/transcript.h"

namespace strata {

Result<Transcript> ImportSweAgentTrajectory(std::string_view text, std::string_view path);

}  // namespace strata
