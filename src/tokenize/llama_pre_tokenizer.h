// llama_pre_tokenizer.h (private): the pre-tokenizer llama.cpp runs for a byte-level BPE
// vocabulary, for a tokenizer that runs without llama.cpp's model (byte_bpe_tokenizer.h).
//
// llama.cpp picks it by the vocabulary's pre-tokenizer type (llm_tokenizer_bpe in its
// src/llama-vocab.cpp): a list of regular expressions that unicode_regex_split (its src/unicode.h)
// runs, through a hand-written function for the common ones. For the types below strata calls that
// same function with the same expressions, so the pieces are llama.cpp's:
//   qwen2 (also stablelm2, hunyuan, solar-open): "qwen2" below, ignore_merges off;
//   llama3 (also dbrx, smaug; cl100k_base is converted as llama-bpe): "llama3", ignore_merges on
//   for llama3 only;
//   gpt-2 (also mpt, olmo, jais, trillion, granite-docling): "gpt2", ignore_merges off;
//   granite-embed-multi-97m (o200k_base): strata's own split (o200k_pieces.h), ignore_merges on.
// ignore_merges is read from llama.cpp's vocabulary (its per-type flag). Other types keep
// llama.cpp's own tokenizer.
//
// unicode_regex_split returns a copy of every piece of its text (code points written back as
// UTF-8, so a byte llama.cpp rejects is U+FFFD), so Split is given parts of at most about
// kMaxPartBytes, cut where every one of these expressions splits (PartEnd).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "strata/status.h"

struct llama_model;

namespace strata {

class LlamaPreTokenizer {
 public:
  // The pre-tokenizer of `model`'s vocabulary, or nothing when it is not one of the above (or not
  // a byte-level BPE vocabulary, GPT-2's "gpt2" tokenizer model).
  static std::optional<LlamaPreTokenizer> For(const llama_model* model);

  // The piece ends of `part` (byte offsets into it, ascending, the last its size) and the bytes
  // llama.cpp's BPE encodes for each piece (equal to the piece unless it holds bytes llama.cpp
  // does not read as UTF-8). Errors: kInvalidArgument for a UTF-8 sequence beyond U+10FFFF, which
  // llama.cpp cannot write back.
  struct Pieces {
    std::vector<size_t> ends;
    std::vector<std::string> bytes;
  };
  Result<Pieces> Split(std::string_view part) const;

  // The end of the part of `text` that starts at `begin`: the last place within kMaxPartBytes
  // where an ASCII letter is followed by a space and an ASCII letter (every expression here ends a
  // piece before that space, and what follows it splits the same without what came before), else
  // the first such place after it, else the end of the text (working memory then grows with a
  // text that has no such place, as llama.cpp's own does).
  static size_t PartEnd(std::string_view text, size_t begin);
  static constexpr size_t kMaxPartBytes = size_t{256} * 1024;

  bool own_o200k_split() const { return own_o200k_split_; }
  bool ignore_merges() const { return ignore_merges_; }

 private:
  std::vector<std::string> regex_exprs_;  // empty with own_o200k_split_
  bool own_o200k_split_ = false;
  bool ignore_merges_ = false;
};

}  // namespace strata
