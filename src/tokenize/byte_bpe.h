// byte_bpe.h: byte-level BPE over a llama.cpp vocabulary file, for the vocabularies whose
// pre-tokenizer strata runs without llama.cpp's model (byte_bpe_tokenizer.h), giving llama.cpp's
// ids.
//
// Read from the GGUF (tokenizer.ggml.tokens and .merges, GPT-2's byte-to-character spelling
// undone): each token's bytes and each merge's rank. Encode follows llama.cpp's BPE session
// (llm_tokenizer_bpe_session::tokenize in its src/llama-vocab.cpp): with ignore_merges (its
// per-pre-tokenizer flag: set for "llama3" and "granite-embed-multi-97m", not for "qwen2" or
// "gpt-2") a piece that is a token is that token; otherwise its bytes are merged pairwise,
// lowest merge rank first (the leftmost pair among equals), and each resulting symbol is its
// token. Compact tables (one byte buffer, open addressing): ~12 MB for o200k_base, against ~50 MB
// of llama.cpp's own vocabulary structures.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "strata/status.h"

namespace strata {

class ByteBpe {
 public:
  // Reads `gguf`'s tokens and merges. Errors: kParse when the file is not a GGUF with both.
  static Result<std::unique_ptr<ByteBpe>> Load(const std::filesystem::path& gguf);

  // Appends the ids of `piece` (one pre-tokenizer piece, the bytes llama.cpp encodes) to `out`.
  // `ignore_merges`: llama.cpp's flag of the vocabulary's pre-tokenizer (a piece that is a token
  // is taken whole, before any merge). Without it such a piece is merged the first time only:
  // whether its merges give it back whole is remembered per token.
  void Encode(std::string_view piece, bool ignore_merges, std::vector<int32_t>& out) const;

  // The id of the token whose bytes are `bytes`, or -1.
  int32_t TokenOf(std::string_view bytes) const;
  // The bytes of token `id` (a control token's text), empty for an id out of range or a token
  // that spells no bytes.
  std::string_view BytesOf(int32_t id) const;
  // The longest BytesOf: a text of B bytes has at least ceil(B / max_token_bytes()) tokens.
  size_t max_token_bytes() const { return max_token_bytes_; }

 private:
  // Strings in one buffer, found by open addressing; `value` is the id or the rank.
  class Table {
   public:
    void Reserve(size_t n);
    // Adds `key` (`split`: where a merge's left part ends, 0 for tokens). `overwrite`: a key
    // already present takes the new value (llama.cpp's token map: the last id wins; its merge
    // ranks keep the first).
    // Returns the key's entry.
    uint32_t Add(std::string_view left, std::string_view right, int32_t value, bool overwrite);
    int32_t Find(std::string_view left, std::string_view right) const;
    std::string_view Key(uint32_t entry) const;

   private:
    struct Entry {
      uint32_t offset = 0;
      uint32_t split = 0;
      uint32_t size = 0;
      int32_t value = 0;
    };
    static uint64_t Hash(std::string_view left, std::string_view right);
    bool Equal(const Entry& e, std::string_view left, std::string_view right) const;
    void Grow();
    std::string bytes_;
    std::vector<Entry> entries_;
    std::vector<uint32_t> slots_;  // entry index + 1, 0 empty
  };

  // Appends the ids the merges give for `piece`.
  void Merge(std::string_view piece, std::vector<int32_t>& out) const;

  Table tokens_;
  Table ranks_;
  std::vector<uint32_t> entry_of_id_;  // tokens_ entry + 1 per id, 0 for none
  size_t max_token_bytes_ = 1;
  // Per id, whether its bytes merge back into it (kWhole) or not (kSplit): learnt on first use
  // without ignore_merges, where a piece that is a token still goes through the merges. Atomic:
  // tokenizers are shared between threads; every thread learns the same value.
  static constexpr uint8_t kUnknown = 0, kWhole = 1, kSplit = 2;
  std::unique_ptr<std::atomic<uint8_t>[]> merges_give_whole_;
};

}  // namespace strata
