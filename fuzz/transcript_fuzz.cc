// transcript_fuzz.cc: every transcript importer (strata, Claude Code, Codex, recorded requests,
// OpenHands, SWE-agent) on arbitrary bytes, the format picked by the first byte, and the format
// told from the bytes (DetectTranscriptFormat, what --format auto runs). Other programs'
// logs are read leniently, so anything may come in: an importer must return a Transcript or an
// error, never crash, hang or read past a member (ASan and UBSan watch).
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "strata/accounting.h"
#include "transcripts/transcript.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  // Names a build does not know are refused by ParseTranscriptFormat and skipped.
  constexpr std::array<std::string_view, 6> kFormats = {"strata",   "claude-code", "codex",
                                                        "recorded", "openhands",   "swe-agent"};
  auto format = strata::ParseTranscriptFormat(kFormats[data[0] % kFormats.size()]);
  if (!format) return 0;
  std::string_view log(reinterpret_cast<const char*>(data + 1), size - 1);
  (void)strata::DetectTranscriptFormat(log, "fuzz.jsonl");
  auto transcript = strata::ParseTranscript(log, "fuzz.jsonl", *format);
  if (transcript) (void)transcript->RequestCount();
  return 0;
}
