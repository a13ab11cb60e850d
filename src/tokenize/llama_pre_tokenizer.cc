// llama_pre_tokenizer.cc: llama.cpp's pre-tokenizer for byte-level BPE vocabularies
// (llama_pre_tokenizer.h).
#include "tokenize/llama_pre_tokenizer.h"

#include <llama.h>

#include <stdexcept>

// llama.cpp's internal headers (src/ of the llama.cpp source tree setup-llama.sh clones; the code
// is in libllama): the vocabulary's pre-tokenizer type and flags, and its regex split.
#include "llama-vocab.h"
#include "unicode.h"

namespace strata {
namespace {

// The expressions of llm_tokenizer_bpe's constructor (llama.cpp's src/llama-vocab.cpp), to the
// letter: unicode_regex_split recognises them and runs its hand-written split.
const char* const kQwen2 =
    "(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}"
    "| "
    "?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";
const char* const kLlama3 =
    "(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}"
    "{1,"
    "3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";
const char* const kGpt2 =
    "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)";

bool IsAsciiLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// A letter, then a space and a letter at `i`.
bool CutsAt(std::string_view text, size_t i) {
  return i > 0 && i + 1 < text.size() && text[i] == ' ' && IsAsciiLetter(text[i - 1]) &&
         IsAsciiLetter(text[i + 1]);
}

}  // namespace

std::optional<LlamaPreTokenizer> LlamaPreTokenizer::For(const llama_model* model) {
  const llama_vocab* vocab = llama_model_get_vocab(model);
  if (vocab->get_type() != LLAMA_VOCAB_TYPE_BPE || vocab->get_tokenizer_model() != "gpt2" ||
      vocab->get_escape_whitespaces()) {
    return std::nullopt;
  }
  LlamaPreTokenizer out;
  switch (vocab->get_pre_type()) {
    case LLAMA_VOCAB_PRE_TYPE_STABLELM2:
    case LLAMA_VOCAB_PRE_TYPE_QWEN2:
    case LLAMA_VOCAB_PRE_TYPE_HUNYUAN:
    case LLAMA_VOCAB_PRE_TYPE_SOLAR_OPEN:
      out.regex_exprs_ = {kQwen2};
      break;
    case LLAMA_VOCAB_PRE_TYPE_LLAMA3:
    case LLAMA_VOCAB_PRE_TYPE_DBRX:
    case LLAMA_VOCAB_PRE_TYPE_SMAUG:
      out.regex_exprs_ = {kLlama3};
      break;
    case LLAMA_VOCAB_PRE_TYPE_GPT2:
    case LLAMA_VOCAB_PRE_TYPE_MPT:
    case LLAMA_VOCAB_PRE_TYPE_OLMO:
    case LLAMA_VOCAB_PRE_TYPE_JAIS:
    case LLAMA_VOCAB_PRE_TYPE_TRILLION:
    case LLAMA_VOCAB_PRE_TYPE_GRANITE_DOCLING:
      out.regex_exprs_ = {kGpt2};
      break;
    case LLAMA_VOCAB_PRE_TYPE_GRANITE_EMB_MULTI:
      out.own_o200k_split_ = true;
      break;
    default:
      return std::nullopt;
  }
  out.ignore_merges_ = vocab->get_ignore_merges();
  return out;
}

size_t LlamaPreTokenizer::PartEnd(std::string_view text, size_t begin) {
  const size_t limit = begin + kMaxPartBytes;
  if (limit >= text.size()) return text.size();
  for (size_t i = limit; i > begin; --i) {
    if (CutsAt(text, i)) return i;
  }
  for (size_t i = limit + 1; i < text.size(); ++i) {
    if (CutsAt(text, i)) return i;
  }
  return text.size();
}

Result<LlamaPreTokenizer::Pieces> LlamaPreTokenizer::Split(std::string_view part) const {
  const std::string text(part);
  Pieces out;
  try {
    out.bytes = unicode_regex_split(text, regex_exprs_, /*byte_encode=*/false);
  } catch (const std::exception&) {
    // unicode_cpt_to_utf8 refuses a code point beyond U+10FFFF.
    return MakeError(ErrorKind::kInvalidArgument,
                     "text holds a UTF-8 sequence beyond U+10FFFF, which llama.cpp cannot "
                     "tokenize");
  }
  // Each piece is the text's next bytes unless llama.cpp read some of them otherwise: then it is
  // as many code points as llama.cpp decodes there (a rejected byte is one).
  out.ends.reserve(out.bytes.size());
  size_t at = 0;
  for (const std::string& piece : out.bytes) {
    if (text.compare(at, piece.size(), piece) == 0) {
      at += piece.size();
    } else {
      for (char c : piece) {
        if ((static_cast<uint8_t>(c) & 0xC0) == 0x80) continue;  // one code point a lead byte
        try {
          unicode_cpt_from_utf8(text, at);
        } catch (const std::invalid_argument&) {
          ++at;
        }
      }
    }
    out.ends.push_back(at);
  }
  return out;
}

}  // namespace strata
