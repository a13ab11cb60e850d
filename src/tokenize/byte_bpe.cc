// byte_bpe.cc: byte-level BPE over a llama.cpp vocabulary file (byte_bpe.h).
#include "tokenize/byte_bpe.h"

#include <gguf.h>

#include <algorithm>
#include <array>
#include <functional>
#include <optional>
#include <queue>

namespace strata {
namespace {

// GPT-2's bytes_to_unicode undone: the byte each character of a stored token stands for (the
// printable bytes are themselves, the other 68 are U+0100 upwards in byte order), -1 for others.
std::array<int16_t, 324> CharToByte() {
  std::array<int16_t, 324> out;
  out.fill(-1);
  int next = 256;
  for (int b = 0; b < 256; ++b) {
    const bool printable = (b >= 0x21 && b <= 0x7E) || (b >= 0xA1 && b <= 0xAC) || b >= 0xAE;
    out[static_cast<size_t>(printable ? b : next++)] = static_cast<int16_t>(b);
  }
  return out;
}

// The bytes a stored token (or merge side) spells, or nothing when a character is not one of the
// 256 (such a token can never equal a piece's spelling: llama.cpp never finds it either).
std::optional<std::string> Unspell(std::string_view text) {
  static const std::array<int16_t, 324> table = CharToByte();
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const auto b0 = static_cast<uint8_t>(text[i]);
    uint32_t cpt = 0;
    if (b0 < 0x80) {
      cpt = b0;
      i += 1;
    } else if ((b0 & 0xE0) == 0xC0 && i + 1 < text.size()) {
      cpt = ((b0 & 0x1Fu) << 6) | (static_cast<uint8_t>(text[i + 1]) & 0x3Fu);
      i += 2;
    } else {
      return std::nullopt;
    }
    if (cpt >= table.size() || table[cpt] < 0) return std::nullopt;
    out.push_back(static_cast<char>(table[cpt]));
  }
  return out;
}

struct GgufCloser {
  void operator()(gguf_context* ctx) const { gguf_free(ctx); }
};

}  // namespace

void ByteBpe::Table::Reserve(size_t n) {
  entries_.reserve(n);
  size_t slots = 16;
  while (slots < 2 * n) slots *= 2;
  slots_.assign(slots, 0);
}

uint64_t ByteBpe::Table::Hash(std::string_view left, std::string_view right) {
  const uint64_t h = std::hash<std::string_view>{}(left);
  return right.empty() ? h : h * 0x9E3779B97F4A7C15ull ^ std::hash<std::string_view>{}(right);
}

bool ByteBpe::Table::Equal(const Entry& e, std::string_view left, std::string_view right) const {
  if (e.split != left.size() || e.size != left.size() + right.size()) return false;
  std::string_view stored(bytes_.data() + e.offset, e.size);
  return stored.substr(0, e.split) == left && stored.substr(e.split) == right;
}

void ByteBpe::Table::Grow() {
  std::vector<uint32_t> slots(slots_.size() * 2, 0);
  const size_t mask = slots.size() - 1;
  for (size_t i = 0; i < entries_.size(); ++i) {
    const Entry& e = entries_[i];
    std::string_view stored(bytes_.data() + e.offset, e.size);
    size_t s = Hash(stored.substr(0, e.split), stored.substr(e.split)) & mask;
    while (slots[s] != 0) s = (s + 1) & mask;
    slots[s] = static_cast<uint32_t>(i + 1);
  }
  slots_ = std::move(slots);
}

uint32_t ByteBpe::Table::Add(std::string_view left, std::string_view right, int32_t value,
                             bool overwrite) {
  if (slots_.empty()) Reserve(16);
  if (2 * (entries_.size() + 1) > slots_.size()) Grow();
  const size_t mask = slots_.size() - 1;
  size_t s = Hash(left, right) & mask;
  for (; slots_[s] != 0; s = (s + 1) & mask) {
    Entry& e = entries_[slots_[s] - 1];
    if (Equal(e, left, right)) {
      if (overwrite) e.value = value;
      return slots_[s] - 1;
    }
  }
  Entry e;
  e.offset = static_cast<uint32_t>(bytes_.size());
  e.split = static_cast<uint32_t>(left.size());
  e.size = static_cast<uint32_t>(left.size() + right.size());
  e.value = value;
  bytes_.append(left);
  bytes_.append(right);
  entries_.push_back(e);
  slots_[s] = static_cast<uint32_t>(entries_.size());
  return slots_[s] - 1;
}

std::string_view ByteBpe::Table::Key(uint32_t entry) const {
  const Entry& e = entries_[entry];
  return std::string_view(bytes_.data() + e.offset, e.size);
}

int32_t ByteBpe::Table::Find(std::string_view left, std::string_view right) const {
  if (slots_.empty()) return -1;
  const size_t mask = slots_.size() - 1;
  for (size_t s = Hash(left, right) & mask; slots_[s] != 0; s = (s + 1) & mask) {
    const Entry& e = entries_[slots_[s] - 1];
    if (Equal(e, left, right)) return e.value;
  }
  return -1;
}

Result<std::unique_ptr<ByteBpe>> ByteBpe::Load(const std::filesystem::path& gguf) {
  gguf_init_params params{};
  params.no_alloc = true;
  params.ctx = nullptr;
  std::unique_ptr<gguf_context, GgufCloser> ctx(gguf_init_from_file(gguf.c_str(), params));
  if (!ctx) return MakeError(ErrorKind::kParse, "not a GGUF file", {gguf.string()});
  const int64_t tokens_key = gguf_find_key(ctx.get(), "tokenizer.ggml.tokens");
  const int64_t merges_key = gguf_find_key(ctx.get(), "tokenizer.ggml.merges");
  if (tokens_key < 0 || merges_key < 0) {
    return MakeError(ErrorKind::kParse, "the vocabulary has no BPE tokens and merges",
                     {gguf.string()});
  }
  auto bpe = std::make_unique<ByteBpe>();
  const size_t n_tokens = gguf_get_arr_n(ctx.get(), tokens_key);
  bpe->tokens_.Reserve(n_tokens);
  bpe->entry_of_id_.assign(n_tokens, 0);
  bpe->merges_give_whole_ = std::make_unique<std::atomic<uint8_t>[]>(n_tokens);
  for (size_t i = 0; i < n_tokens; ++i) {
    if (auto bytes = Unspell(gguf_get_arr_str(ctx.get(), tokens_key, i))) {
      bpe->entry_of_id_[i] = bpe->tokens_.Add(*bytes, {}, static_cast<int32_t>(i), true) + 1;
      bpe->max_token_bytes_ = std::max(bpe->max_token_bytes_, bytes->size());
    }
  }
  const size_t n_merges = gguf_get_arr_n(ctx.get(), merges_key);
  bpe->ranks_.Reserve(n_merges);
  for (size_t i = 0; i < n_merges; ++i) {
    // llama.cpp splits a merge at its first space after the first character.
    std::string_view merge = gguf_get_arr_str(ctx.get(), merges_key, i);
    const size_t space = merge.find(' ', 1);
    if (space == std::string_view::npos) continue;
    auto left = Unspell(merge.substr(0, space));
    auto right = Unspell(merge.substr(space + 1));
    if (!left || !right || left->empty() || right->empty()) continue;
    bpe->ranks_.Add(*left, *right, static_cast<int32_t>(i), /*overwrite=*/false);
  }
  return bpe;
}

int32_t ByteBpe::TokenOf(std::string_view bytes) const { return tokens_.Find(bytes, {}); }

std::string_view ByteBpe::BytesOf(int32_t id) const {
  if (id < 0 || static_cast<size_t>(id) >= entry_of_id_.size() || entry_of_id_[id] == 0) return {};
  return tokens_.Key(entry_of_id_[static_cast<size_t>(id)] - 1);
}

void ByteBpe::Encode(std::string_view piece, bool ignore_merges, std::vector<int32_t>& out) const {
  if (piece.empty()) return;
  const int32_t whole = TokenOf(piece);
  if (whole < 0) {
    Merge(piece, out);
    return;
  }
  if (ignore_merges) {
    out.push_back(whole);
    return;
  }
  // The merges decide; the same bytes always merge the same way, so whether they give the token
  // back whole is worked out once per token.
  std::atomic<uint8_t>& known = merges_give_whole_[static_cast<size_t>(whole)];
  const uint8_t state = known.load(std::memory_order_relaxed);
  if (state == kWhole) {
    out.push_back(whole);
    return;
  }
  const size_t before = out.size();
  Merge(piece, out);
  if (state == kUnknown) {
    const bool same = out.size() == before + 1 && out.back() == whole;
    known.store(same ? kWhole : kSplit, std::memory_order_relaxed);
  }
}

void ByteBpe::Merge(std::string_view piece, std::vector<int32_t>& out) const {
  // One symbol per byte (a character of the byte-level spelling), linked both ways.
  struct Symbol {
    uint32_t start = 0;
    uint32_t size = 0;
    int32_t prev = -1;
    int32_t next = -1;
  };
  std::vector<Symbol> symbols(piece.size());
  for (size_t i = 0; i < piece.size(); ++i) {
    symbols[i] = {static_cast<uint32_t>(i), 1, static_cast<int32_t>(i) - 1,
                  i + 1 < piece.size() ? static_cast<int32_t>(i + 1) : -1};
  }
  struct Pair {
    int32_t rank;
    int32_t left;
    int32_t right;
    uint32_t size;  // left + right bytes when queued: a changed symbol makes the pair stale
  };
  const auto later = [](const Pair& a, const Pair& b) {
    return a.rank > b.rank || (a.rank == b.rank && a.left > b.left);
  };
  std::priority_queue<Pair, std::vector<Pair>, decltype(later)> queue(later);
  const auto text = [&](int32_t i) {
    return piece.substr(symbols[static_cast<size_t>(i)].start,
                        symbols[static_cast<size_t>(i)].size);
  };
  const auto add = [&](int32_t left, int32_t right) {
    if (left < 0 || right < 0) return;
    const int32_t rank = ranks_.Find(text(left), text(right));
    if (rank < 0) return;
    queue.push(
        {rank, left, right,
         symbols[static_cast<size_t>(left)].size + symbols[static_cast<size_t>(right)].size});
  };
  for (size_t i = 1; i < symbols.size(); ++i) {
    add(static_cast<int32_t>(i - 1), static_cast<int32_t>(i));
  }
  while (!queue.empty()) {
    const Pair p = queue.top();
    queue.pop();
    Symbol& left = symbols[static_cast<size_t>(p.left)];
    Symbol& right = symbols[static_cast<size_t>(p.right)];
    // llama.cpp's staleness test: both still there and their text the queued text (the left
    // symbol's start never moves, so the sizes decide).
    if (left.size == 0 || right.size == 0 || left.size + right.size != p.size) continue;
    left.size += right.size;
    right.size = 0;
    left.next = right.next;
    if (right.next >= 0) symbols[static_cast<size_t>(right.next)].prev = p.left;
    add(left.prev, p.left);
    add(p.left, left.next);
  }
  for (int32_t i = 0; i >= 0; i = symbols[static_cast<size_t>(i)].next) {
    std::string_view symbol = text(i);
    if (int32_t id = TokenOf(symbol); id >= 0) {
      out.push_back(id);
      continue;
    }
    // llama.cpp then looks up each byte of the symbol's spelling alone: only the printable ASCII
    // bytes spell as one byte, so only they can be found.
    for (char c : symbol) {
      const auto b = static_cast<uint8_t>(c);
      if (b < 0x21 || b > 0x7E) continue;
      if (int32_t id = TokenOf(std::string_view(&c, 1)); id >= 0) out.push_back(id);
    }
  }
}

}  // namespace strata
