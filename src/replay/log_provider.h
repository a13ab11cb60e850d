// log_provider.h (private): the cache model and tokenizer a log's own evidence implies, for
// replay, explain and usage when --provider / --tokenizer are not given (docs/replay.md,
// "Provider and tokenizer").
#pragma once

#include <string>
#include <string_view>

#include "strata/accounting.h"
#include "transcripts/transcript.h"

namespace strata {

// The provider a transcript's requests went to: Transcript::provider when it names one
// ("openai" and "azure": openai; "anthropic"; "deepseek"), else the first model id's family
// (claude: anthropic; gpt-, o1/o3/o4, codex: openai; deepseek), else anthropic.
CacheModelKind ProviderForTranscript(const Transcript& transcript);

// The first model id the transcript's contexts name, "" when none.
std::string FirstModel(const Transcript& transcript);

// The model id to choose a tokenizer by (--tokenizer auto): `model` itself, or for an OpenAI log
// without a known model "gpt-5" (o200k_base, the encoding of OpenAI's current models).
std::string TokenizerModel(std::string_view model, CacheModelKind provider);

}  // namespace strata
