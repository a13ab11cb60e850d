// byte_bpe_tokenizer.h (private): the Tokenizer of a byte-level BPE vocabulary whose pre-tokenizer
// strata runs without llama.cpp's model: llama.cpp's user-defined tokens split out first
// (user_tokens.h), then its pre-tokenizer (llama_pre_tokenizer.h: its own regex split for qwen2,
// llama3 and gpt-2, strata's o200k_pieces.h for o200k_base, which llama.cpp runs through
// std::regex at ~2.4 us a byte), then strata's BPE (byte_bpe.h) over the vocabulary file:
// llama.cpp's ids without its vocabulary structures (~33 MB for qwen2, ~50 MB for o200k_base) or
// its BPE session. LoadVocabTokenizer (vocab_tokenizer.cc) picks it for such a file.
#pragma once

#include <memory>
#include <string>

#include "strata/accounting.h"
#include "tokenize/byte_bpe.h"
#include "tokenize/llama_pre_tokenizer.h"
#include "tokenize/user_tokens.h"

namespace strata {

// `name` as LoadVocabTokenizer names it ("llama.cpp vocab qwen2"). Tokenize: the ids
// llama_tokenize gives for the text (no BOS, control-token text as plain text, user-defined
// tokens split out); text that is not UTF-8 is read as llama.cpp reads it (a rejected byte is
// U+FFFD), a sequence beyond U+10FFFF is kInvalidArgument. Working memory is bounded by the
// pre-tokenizer's parts (LlamaPreTokenizer::PartEnd), not the text. TokenizeWithOffsets: each
// token's end is the end of its bytes, within its piece (the piece's end for the last).
// max_token_bytes: the longest token's bytes.
std::unique_ptr<Tokenizer> MakeByteBpeTokenizer(std::string name, std::unique_ptr<ByteBpe> bpe,
                                                LlamaPreTokenizer pre, UserTokens user_tokens);

}  // namespace strata
