// make_openai_vocab: converts an OpenAI tiktoken encoding (o200k_base, cl100k_base) into a
// llama.cpp vocabulary file (ggml-vocab-<name>.gguf), so replay and explain count OpenAI prompts in
// the provider's own tokens through llama.cpp's BPE.
//
// Input: the encoder JSON the npm `tiktoken` package ships (encoders/<name>.json:
// {"pat_str", "special_tokens", "bpe_ranks"}; bpe_ranks is lines of "<tag> <first rank> <base64
// token> <base64 token> ...", ranks counting up from the first). tiktoken has ranks, not merges:
// a merge is every split of a token into two tokens (left, right), ordered by the token's rank and
// then by the ranks of its two halves (the rule Hugging Face's tiktoken converter uses), so that
// llama.cpp's "lowest-ranked adjacent pair first" equals tiktoken's "lowest-ranked concatenation
// first". Tokens are written in GPT-2's byte-to-unicode spelling, with ids equal to tiktoken's
// ranks; special tokens (<|endoftext|>, ...) are control tokens at their ids; ids that neither
// uses are unused placeholders. The pre-tokenizer is llama.cpp's name for the encoding's split
// regex: for o200k_base "granite-embed-multi-97m" (llama.cpp's GPT-4o split with \p{M} in the
// letter classes, as o200k's regex has them; plain "gpt-4o" drops the marks and splits Devanagari
// or Thai words apart), for cl100k_base "llama-bpe" (Llama 3's split, the cl100k regex). Both take
// a split piece that is itself a token whole, as tiktoken does.
// Other metadata (architecture, sizes) is copied from a llama.cpp vocabulary file given as
// --template (a vocabulary-only load needs it).
//
// Usage: make_openai_vocab --encoder encoders/o200k_base.json --pre granite-embed-multi-97m
//          --template models/ggml-vocab-gpt-2.gguf --out ggml-vocab-o200k_base.gguf
// The file is written atomically (temporary name, then rename). Exit 0 ok, 2 bad input.
#include <gguf.h>

#include <unistd.h>
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace {

struct GgufFree {
  void operator()(gguf_context* ctx) const { gguf_free(ctx); }
};

std::string DecodeBase64(std::string_view in) {
  static const std::string kAlphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  uint32_t buffer = 0;
  int bits = 0;
  for (char c : in) {
    if (c == '=') break;
    size_t v = kAlphabet.find(c);
    if (v == std::string::npos) continue;
    buffer = (buffer << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((buffer >> bits) & 0xFF);
    }
  }
  return out;
}

// GPT-2's byte-to-unicode table: printable Latin-1 bytes stand for themselves, the rest map to
// U+0100 upwards in byte order; each entry is the UTF-8 of that code point.
std::vector<std::string> ByteToUnicode() {
  std::vector<int> code(256, -1);
  for (int b = 0; b < 256; ++b) {
    if ((b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF)) code[b] = b;
  }
  int next = 256;
  for (int b = 0; b < 256; ++b) {
    if (code[b] < 0) code[b] = next++;
  }
  std::vector<std::string> out(256);
  for (int b = 0; b < 256; ++b) {
    int cp = code[b];
    if (cp < 0x80) {
      out[b] = std::string(1, static_cast<char>(cp));
    } else {
      out[b] = {static_cast<char>(0xC0 | (cp >> 6)), static_cast<char>(0x80 | (cp & 0x3F))};
    }
  }
  return out;
}

std::string Spell(const std::string& bytes, const std::vector<std::string>& table) {
  std::string out;
  for (unsigned char b : bytes) out += table[b];
  return out;
}

struct Encoding {
  std::vector<std::string> tokens;  // by rank; "" where no token has that rank
  std::unordered_map<std::string, int> rank;
  std::map<int, std::string> special;  // id -> text
};

bool ReadEncoding(const std::string& path, Encoding* enc) {
  std::ifstream in(path);
  if (!in) return false;
  nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  if (!j.is_object() || !j.contains("bpe_ranks") || !j["bpe_ranks"].is_string()) return false;
  std::istringstream lines(j["bpe_ranks"].get<std::string>());
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);
    std::string tag, first, token;
    if (!(fields >> tag >> first)) continue;
    int r = std::stoi(first);
    while (fields >> token) {
      std::string bytes = DecodeBase64(token);
      if (static_cast<int>(enc->tokens.size()) <= r) enc->tokens.resize(r + 1);
      enc->tokens[r] = bytes;
      enc->rank.emplace(bytes, r);
      ++r;
    }
  }
  const nlohmann::json special = j.value("special_tokens", nlohmann::json::object());
  for (const auto& [text, id] : special.items()) enc->special[id.get<int>()] = text;
  return !enc->tokens.empty();
}

// Every (left, right) split of every token whose halves are tokens, ordered by (token rank, left
// rank, right rank).
std::vector<std::pair<std::string, std::string>> DeriveMerges(const Encoding& enc) {
  std::vector<std::tuple<int, int, int>> order;
  for (int r = 0; r < static_cast<int>(enc.tokens.size()); ++r) {
    const std::string& t = enc.tokens[r];
    for (size_t i = 1; i < t.size(); ++i) {
      auto l = enc.rank.find(t.substr(0, i));
      auto rr = enc.rank.find(t.substr(i));
      if (l != enc.rank.end() && rr != enc.rank.end()) order.emplace_back(r, l->second, rr->second);
    }
  }
  std::sort(order.begin(), order.end());
  std::vector<std::pair<std::string, std::string>> merges;
  merges.reserve(order.size());
  for (const auto& [r, l, rr] : order) merges.emplace_back(enc.tokens[l], enc.tokens[rr]);
  return merges;
}

void SetStringArray(gguf_context* ctx, const char* key, const std::vector<std::string>& values) {
  std::vector<const char*> ptrs;
  ptrs.reserve(values.size());
  for (const auto& v : values) ptrs.push_back(v.c_str());
  gguf_set_arr_str(ctx, key, ptrs.data(), ptrs.size());
}

int Write(const Encoding& enc, const std::string& name, const std::string& pre,
          const std::string& template_path, const std::string& out) {
  gguf_init_params params{/*no_alloc=*/true, /*ctx=*/nullptr};
  std::unique_ptr<gguf_context, GgufFree> tmpl(gguf_init_from_file(template_path.c_str(), params));
  if (!tmpl) {
    std::fprintf(stderr, "make_openai_vocab: error: cannot read %s\n", template_path.c_str());
    return 2;
  }
  std::unique_ptr<gguf_context, GgufFree> ctx(gguf_init_empty());
  gguf_set_kv(ctx.get(), tmpl.get());
  for (int64_t i = gguf_get_n_kv(ctx.get()) - 1; i >= 0; --i) {
    std::string key = gguf_get_key(ctx.get(), i);
    if (key.rfind("tokenizer.", 0) == 0) gguf_remove_key(ctx.get(), key.c_str());
  }
  const auto table = ByteToUnicode();
  int n_vocab = static_cast<int>(enc.tokens.size());
  if (!enc.special.empty()) n_vocab = std::max(n_vocab, enc.special.rbegin()->first + 1);
  std::vector<std::string> tokens(n_vocab);
  std::vector<int32_t> types(n_vocab, 1);  // LLAMA_TOKEN_TYPE_NORMAL
  int endoftext = -1;
  for (int id = 0; id < n_vocab; ++id) {
    if (auto s = enc.special.find(id); s != enc.special.end()) {
      tokens[id] = s->second;
      types[id] = 3;  // CONTROL
      if (s->second == "<|endoftext|>") endoftext = id;
    } else if (id < static_cast<int>(enc.tokens.size()) && !enc.tokens[id].empty()) {
      tokens[id] = Spell(enc.tokens[id], table);
    } else {
      tokens[id] = "<|strata_unused_" + std::to_string(id) + "|>";
      types[id] = 5;  // UNUSED
    }
  }
  std::vector<std::string> merges;
  for (const auto& [l, r] : DeriveMerges(enc))
    merges.push_back(Spell(l, table) + " " + Spell(r, table));
  gguf_set_val_str(ctx.get(), "general.name", ("openai " + name).c_str());
  gguf_set_val_str(ctx.get(), "tokenizer.ggml.model", "gpt2");
  gguf_set_val_str(ctx.get(), "tokenizer.ggml.pre", pre.c_str());
  SetStringArray(ctx.get(), "tokenizer.ggml.tokens", tokens);
  gguf_set_arr_data(ctx.get(), "tokenizer.ggml.token_type", GGUF_TYPE_INT32, types.data(),
                    types.size());
  SetStringArray(ctx.get(), "tokenizer.ggml.merges", merges);
  if (endoftext >= 0) {
    gguf_set_val_u32(ctx.get(), "tokenizer.ggml.bos_token_id", endoftext);
    gguf_set_val_u32(ctx.get(), "tokenizer.ggml.eos_token_id", endoftext);
  }
  gguf_set_val_bool(ctx.get(), "tokenizer.ggml.add_bos_token", false);
  std::string tmp = out + ".tmp." + std::to_string(::getpid());
  if (!gguf_write_to_file(ctx.get(), tmp.c_str(), /*only_meta=*/false)) {
    std::fprintf(stderr, "make_openai_vocab: error: cannot write %s\n", tmp.c_str());
    return 2;
  }
  std::error_code ec;
  std::filesystem::rename(tmp, out, ec);
  if (ec) {
    std::fprintf(stderr, "make_openai_vocab: error: cannot rename to %s\n", out.c_str());
    return 2;
  }
  std::printf("%s: %d tokens, %zu merges, pre-tokenizer %s\n", out.c_str(), n_vocab, merges.size(),
              pre.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"make_openai_vocab: a tiktoken encoding as a llama.cpp vocabulary file"};
  std::string encoder, pre, template_path, out;
  app.add_option("--encoder", encoder, "tiktoken encoders/<name>.json")->required();
  app.add_option("--pre", pre, "llama.cpp pre-tokenizer name (granite-embed-multi-97m, llama-bpe)")
      ->required();
  app.add_option("--template", template_path,
                 "a llama.cpp ggml-vocab-*.gguf for the other metadata")
      ->required();
  app.add_option("--out", out, "the GGUF to write")->required();
  CLI11_PARSE(app, argc, argv);
  Encoding enc;
  if (!ReadEncoding(encoder, &enc)) {
    std::fprintf(stderr, "make_openai_vocab: error: %s is not a tiktoken encoder JSON\n",
                 encoder.c_str());
    return 2;
  }
  std::string name = std::filesystem::path(encoder).stem().string();
  return Write(enc, name, pre, template_path, out);
}
