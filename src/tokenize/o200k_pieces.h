// o200k_pieces.h: o200k_base's pre-tokenizer, the split of a text into the pieces BPE then
// encodes one by one, without a regular-expression engine.
//
// The rule is the regex llama.cpp runs for the pre-tokenizer type "granite-embed-multi-97m" (the
// one tools/make_openai_vocab writes into ggml-vocab-o200k_base.gguf: tiktoken's o200k_base
// pattern with \p{M} in both letter classes), as llama.cpp runs it: through std::regex on a
// "collapsed" text where every code point above U+007F stands for its class (a whitespace, a
// letter, a number, a mark, anything else) and ASCII stays itself. Its alternatives, first match
// wins (ECMAScript backtracking), U = [A-Z] or a non-ASCII letter or mark, Lo = [a-z] or a
// non-ASCII letter or mark, P = anything but \r, \n, a letter or a number:
//   1. P? U* Lo+ C?          C: 's 't 're 've 'm 'll 'd in either case
//   2. P? U+ Lo* C?
//   3. \p{N}{1,3}
//   4. ' '? [^\s\p{L}\p{N}]+ [\r\n/]*
//   5. \s*[\r\n]+
//   6. \s+(?!\S)
//   7. \s+
// The classes of non-ASCII code points are llama.cpp's own (its unicode_cpt_flags_from_cpt), so
// the split equals llama.cpp's on any text: tests/tokenize/o200k_pieces_test.cc compares both on
// the corpus and on hand-written cases. One pass, linear in the text (llama.cpp's std::regex
// fallback took ~2.4 us a byte, bench/README.md).
//
// Text is read as llama.cpp reads it: a byte that does not start a UTF-8 sequence it accepts is a
// U+FFFD of its own; such bytes (and overlong or out-of-range sequences) are reported, since
// llama.cpp then encodes U+FFFD instead of the bytes.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "strata/status.h"

namespace strata {

class O200kPieces {
 public:
  explicit O200kPieces(std::string_view text) : text_(text) {}

  // The next piece (a non-empty view into the text) or false at the end. `*not_utf8` (when not
  // null) is set when the piece holds bytes llama.cpp does not read back as themselves (invalid,
  // overlong or beyond U+10FFFF).
  bool Next(std::string_view* piece, bool* not_utf8 = nullptr);

 private:
  std::string_view text_;
  size_t pos_ = 0;
};

// The bytes llama.cpp's BPE encodes for `piece`: each code point it decodes written back as UTF-8,
// a rejected byte as U+FFFD (equal to `piece` unless O200kPieces::Next said not_utf8). Errors:
// kInvalidArgument for a 4-byte sequence beyond U+10FFFF, which llama.cpp cannot write back.
Result<std::string> AsLlamaReads(std::string_view piece);

}  // namespace strata
