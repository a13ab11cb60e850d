// replay_run.h (private): a log read and the choices a run leaves open settled, as ReplayFile
// (strata/replay.h) settles them; `strata explain --log` reads its log through the same code.
#pragma once

#include <string>

#include "strata/replay.h"
#include "transcripts/transcript.h"

namespace strata {

struct SettledLog {
  std::string log;                                      // the file's bytes
  std::string label;                                    // its path; "<stdin>" for "-"
  TranscriptFormat format = TranscriptFormat::kStrata;  // the run's, else told from the bytes
  bool streamed = false;  // a recorded-layout replay read line by line: `transcript` may be empty
  Transcript transcript;  // with prefix_from applied; parsed unless streamed without compare
  // The cache model (the run's provider, else a recorded file's API, else the provider the
  // transcript implies, else anthropic), the layout (the run's, else recorded for a recorded
  // file and strata for other logs) and the pricing.
  ReplayOptions options;
  std::string tokenizer_model;  // the model id to load the tokenizer for
};

// Reads run.log and settles it (its format: the run's, else DetectTranscriptFormat's).
// `stream_recorded`: a recorded-layout run may be replayed line by line (ReplayFile); false parses
// every log (explain). Errors: kNotFound / kIo / kLimit for an unreadable log or prefix_from file,
// kInvalidArgument for an unknown provider or layout name, the transcript readers' errors.
Result<SettledLog> SettleLog(const ReplayFileOptions& run, bool stream_recorded);

}  // namespace strata
