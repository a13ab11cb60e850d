// explain.h: `strata explain`: why a request missed the cache (docs/explain.md).
//
// Given two consecutive rendered requests A and B, finds the first byte where they differ, the
// first token (the same block-wise tokenization replay uses), the layer and source of B that own
// that byte (from B's layer map, else A's, else the JSON member it falls in), the breakpoints of
// A that lie after it (their cached prefixes cannot be read by B), and how many tokens become
// uncached as a result.
//
// Two provider requests as a client sent them (JSON bodies without a layer map, e.g. captured by
// `strata record`) are compared in their canonical prompt form (docs/replay.md, "Canonical
// prompts"): tools, system and messages as the provider caches them, without cache_control,
// metadata, stream, max_tokens and the other members that are not prompt text, a string content
// equal to one text block. Offsets are then offsets in the canonical form, the position names the
// block (`system[2]`, `messages[3].content[0]`) and the character in it, a breakpoint that moved
// forward is no difference, and members that differ outside the prompt are listed.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "strata/export.h"
#include "strata/prompt.h"
#include "strata/render.h"
#include "strata/status.h"
#include "strata/tokenizer.h"

namespace STRATA_EXPORT strata {

// One rendered request with what is known about its structure.
struct ExplainInput {
  std::string bytes;
  LayerMap layers;                      // may be empty
  std::vector<Breakpoint> breakpoints;  // may be empty
  std::string model;                    // the request's "model" member when it has one, else ""
  // The provider API (RequestApiName) when the input is a bare provider request body (JSON with
  // messages or input, no layer map); Explain then compares canonical prompts. "" otherwise.
  std::string api;
};

// Reads what `strata assemble` prints: either the request itself (breakpoints are found from its
// "cache_control" members), or {"request": "<the request bytes as a string>", "layers": [layer
// map], "breakpoints": [{"offset", "ttl", "layer"}]} as `strata assemble --with-layers` prints. A
// single trailing newline is not part of the request; a chat-template render (text holding
// `<|im_start|>`-style special tokens) is read as text. Errors (kParse, naming `path` and, for
// JSON, the line and column): an empty file, bytes that are not UTF-8 text, JSON that is not an
// object or is cut short, text that is neither JSON nor a chat-template render, a
// layers/breakpoints member of the wrong shape.
Result<ExplainInput> ParseExplainInput(std::string_view text, std::string_view path);
// The {"request","layers","breakpoints"} form of `input`.
std::string FormatExplainInput(const ExplainInput& input);
// A layer map as printed by `strata assemble --layers` (FormatLayerMap). Errors: kParse (naming
// `path`) for text that is not a JSON array of objects or a member of the wrong type.
Result<LayerMap> ParseLayerMap(std::string_view text, std::string_view path);

// ParseExplainInput of the file at `path` ("-": standard input, labelled "<stdin>"), with the
// layer map of the file at `layers_path` (ParseLayerMap) replacing its own when that is not empty.
// Errors: kNotFound / kIo for an unreadable file, kLimit past 256 MiB, then as the parsers.
Result<ExplainInput> LoadExplainInput(const std::filesystem::path& path,
                                      const std::filesystem::path& layers_path = {});
// Writes FormatExplainInput(input) to `path` atomically (a reader sees the old file or the new
// one). Errors: kIo naming the path; the file is unchanged then.
Status SaveExplainInput(const std::filesystem::path& path, const ExplainInput& input);

struct Explanation {
  bool identical = false;
  size_t first_byte = 0;   // offset of the first differing byte (== the shorter size if a prefix)
  size_t first_char = 0;   // the same offset in Unicode code points (what an editor shows)
  size_t first_token = 0;  // tokens equal before it
  std::string layer;       // owning layer of B at first_byte (or A's, or a JSON member name)
  std::string source;      // instruction key / tool name, when the span has one
  std::string volatility;  // of the owning span, when known
  std::vector<Breakpoint> invalidated;  // A's breakpoints after first_byte
  // Explicit breakpoints: A's tokens between first_token and its last breakpoint. Automatic caching
  // (OpenAI APIs, or requests without breakpoints): A's whole prompt was cached, so all of A's
  // tokens from first_token on.
  size_t lost_cached_tokens = 0;
  size_t uncached_tokens = 0;  // B's tokens from first_token to its end
  bool automatic = false;      // automatic prefix caching (no breakpoints)
  // The cause class (replay.h DropCause names): "tools-change", "system-change",
  // "messages-change" from the owning layer, "model-change" when the models differ; "" when
  // identical or B only extends A.
  std::string cause;
  size_t tokens_a = 0, tokens_b = 0;
  std::string context_a, context_b;  // up to 40 bytes on each side of the difference
  std::string tokenizer;
  // Canonical prompts (both inputs bare provider requests of one API); empty/false otherwise.
  std::string api;       // RequestApiName
  std::string position;  // "system[2], character 17" (code points into the block); "" identical
  bool prompt_extends = false;                 // B's prompt starts with all of A's
  std::vector<std::string> outside_prompt;     // top-level members that differ and are not prompt
  std::vector<std::string> invalidated_paths;  // the block each invalidated breakpoint closes
};

Result<Explanation> Explain(const ExplainInput& a, const ExplainInput& b,
                            const Tokenizer& tokenizer);
std::string FormatExplanation(const Explanation& e);
std::string FormatExplanationJson(const Explanation& e);

}  // namespace strata
