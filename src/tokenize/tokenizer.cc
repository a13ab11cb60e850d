// tokenizer.cc: helpers on tokenized text shared by the cache models, replay and explain
// (tokenizer.h); part of the core library, unlike vocab_tokenizer.cc.
#include "strata/accounting.h"

#include <algorithm>

namespace strata {

size_t TokensBefore(const TokenizedText& text, size_t offset) {
  return static_cast<size_t>(std::upper_bound(text.ends.begin(), text.ends.end(), offset) -
                             text.ends.begin());
}

}  // namespace strata
