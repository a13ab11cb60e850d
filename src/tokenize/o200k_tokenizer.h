// o200k_tokenizer.h (private): the Tokenizer of a vocabulary with o200k_base's pre-tokenizer,
// strata's own split (o200k_pieces.h) and BPE (byte_bpe.h) over the vocabulary file: llama.cpp's
// ids without its std::regex pre-tokenizer (~2.4 us a byte) or its vocabulary structures (~50 MB
// for o200k_base). LoadVocabTokenizer (vocab_tokenizer.cc) picks it for such a file.
#pragma once

#include <memory>
#include <string>

#include "strata/accounting.h"
#include "tokenize/byte_bpe.h"

namespace strata {

// `name` as LoadVocabTokenizer names it ("llama.cpp vocab o200k_base"). Tokenize: the ids
// llama_tokenize gives for the text (no BOS, special-token text as plain text); text that is not
// UTF-8 is read as llama.cpp reads it (a rejected byte is U+FFFD), a sequence beyond U+10FFFF is
// kInvalidArgument. TokenizeWithOffsets: each token's end is the end of its bytes, within its
// piece. max_token_bytes: the longest token's bytes.
std::unique_ptr<Tokenizer> MakeO200kTokenizer(std::string name, std::unique_ptr<ByteBpe> bpe);

}  // namespace strata
