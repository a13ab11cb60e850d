// model_fingerprint.cc: identifies a GGUF model by its metadata and sampled weight bytes (see
// ModelFingerprint in local_session.h). llama.cpp's state loader accepts a state written by any
// model of the same shapes, so the checkpoint identity needs this to tell weights apart; reading
// a few windows per tensor keeps it to a few MB even for large models, and the on-disk cache keyed
// by (path, size, mtime, device, inode, ctime) makes later starts read only the cache file; when
// any of them differs the windows are sampled again.
#include <fcntl.h>
#include <fmt/format.h>
#include <gguf.h>
#include <sys/stat.h>
#include <unistd.h>

#include <memory>
#include <nlohmann/json.hpp>

#include "base/hash.h"
#include "io/file_io.h"
#include "strata/local_session.h"

namespace strata {
namespace fs = std::filesystem;
namespace {

struct GgufFree {
  void operator()(gguf_context* ctx) const { gguf_free(ctx); }
};
// The bytes a digest covers, hashed at once by Sha256Hex (the sampled windows keep them to a few
// MB even for large models).
class Sha256 {
 public:
  void Add(std::string_view bytes) { bytes_.append(bytes); }
  void AddU64(uint64_t v) { Add(std::string_view(reinterpret_cast<const char*>(&v), sizeof v)); }
  std::string Hex() const { return Sha256Hex(bytes_); }

 private:
  std::string bytes_;
};

size_t ScalarSize(gguf_type type) {
  switch (type) {
    case GGUF_TYPE_UINT8:
    case GGUF_TYPE_INT8:
    case GGUF_TYPE_BOOL:
      return 1;
    case GGUF_TYPE_UINT16:
    case GGUF_TYPE_INT16:
      return 2;
    case GGUF_TYPE_UINT32:
    case GGUF_TYPE_INT32:
    case GGUF_TYPE_FLOAT32:
      return 4;
    case GGUF_TYPE_UINT64:
    case GGUF_TYPE_INT64:
    case GGUF_TYPE_FLOAT64:
      return 8;
    default:
      return 0;
  }
}

// Hashes one key/value pair: key, type, value bytes (strings length-prefixed).
void HashKv(Sha256& h, const gguf_context* ctx, int64_t i) {
  h.Add(gguf_get_key(ctx, i));
  const gguf_type type = gguf_get_kv_type(ctx, i);
  h.AddU64(type);
  if (type == GGUF_TYPE_STRING) {
    std::string_view s = gguf_get_val_str(ctx, i);
    h.AddU64(s.size());
    h.Add(s);
  } else if (type == GGUF_TYPE_ARRAY) {
    const gguf_type elem = gguf_get_arr_type(ctx, i);
    const size_t n = gguf_get_arr_n(ctx, i);
    h.AddU64(elem);
    h.AddU64(n);
    if (elem == GGUF_TYPE_STRING) {
      for (size_t k = 0; k < n; ++k) {
        std::string_view s = gguf_get_arr_str(ctx, i, k);
        h.AddU64(s.size());
        h.Add(s);
      }
    } else {
      h.Add(std::string_view(static_cast<const char*>(gguf_get_arr_data(ctx, i)),
                             n * ScalarSize(elem)));
    }
  } else {
    h.Add(std::string_view(static_cast<const char*>(gguf_get_val_data(ctx, i)), ScalarSize(type)));
  }
}

fs::path CacheFile(const fs::path& cache_dir, const fs::path& gguf, const struct stat& st) {
  Sha256 h;
  h.Add(fs::absolute(gguf).string());
  h.AddU64(static_cast<uint64_t>(st.st_size));
  h.AddU64(static_cast<uint64_t>(st.st_mtim.tv_sec));
  h.AddU64(static_cast<uint64_t>(st.st_mtim.tv_nsec));
  h.AddU64(static_cast<uint64_t>(st.st_ino));
  h.AddU64(static_cast<uint64_t>(st.st_dev));
  // ctime: an overwrite in place with the mtime restored (same path, size, inode) still changes
  // it, and nothing but the kernel can set it back.
  h.AddU64(static_cast<uint64_t>(st.st_ctim.tv_sec));
  h.AddU64(static_cast<uint64_t>(st.st_ctim.tv_nsec));
  return cache_dir / "models" / (h.Hex().substr(0, 32) + ".json");
}

}  // namespace

Result<ModelFingerprint> FingerprintModel(const fs::path& gguf, const fs::path& cache_dir) {
  struct stat st {};
  if (::stat(gguf.c_str(), &st) != 0)
    return MakeError(ErrorKind::kNotFound, "model file not found", {gguf.string()});
  fs::path cached;
  if (!cache_dir.empty()) {
    cached = CacheFile(cache_dir, gguf, st);
    if (auto bytes = ReadFileBytes(cached)) {
      nlohmann::json j = nlohmann::json::parse(*bytes, nullptr, false);
      if (j.is_object() && j.value("digest", "").size() == 64) {
        ModelFingerprint fp;
        fp.digest = j.value("digest", "");
        fp.tokenizer = j.value("tokenizer", "");
        fp.chat_template = j.value("chat_template", "");
        return fp;
      }
    }
  }

  gguf_init_params params{/*no_alloc=*/true, /*ctx=*/nullptr};
  std::unique_ptr<gguf_context, GgufFree> ctx(gguf_init_from_file(gguf.c_str(), params));
  if (!ctx) return MakeError(ErrorKind::kParse, "not a GGUF model", {gguf.string()});
  ModelFingerprint fp;
  Sha256 tok;
  for (int64_t i = 0; i < gguf_get_n_kv(ctx.get()); ++i) {
    std::string_view key = gguf_get_key(ctx.get(), i);
    if (key == "tokenizer.chat_template") {
      fp.chat_template = gguf_get_val_str(ctx.get(), i);
    } else if (key.rfind("tokenizer.", 0) == 0) {
      HashKv(tok, ctx.get(), i);
    }
  }
  fp.tokenizer = tok.Hex();

  const int fd = ::open(gguf.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return MakeError(ErrorKind::kIo, "cannot open model", {gguf.string()});
  Sha256 h;
  h.AddU64(static_cast<uint64_t>(st.st_size));
  const size_t data_offset = gguf_get_data_offset(ctx.get());
  std::string buf(std::max<size_t>(data_offset, 4096), '\0');
  bool ok = ::pread(fd, buf.data(), data_offset, 0) == static_cast<ssize_t>(data_offset);
  h.Add(std::string_view(buf.data(), data_offset));
  constexpr size_t kWindow = 4096;
  for (int64_t t = 0; ok && t < gguf_get_n_tensors(ctx.get()); ++t) {
    const size_t off = data_offset + gguf_get_tensor_offset(ctx.get(), t);
    const size_t size = gguf_get_tensor_size(ctx.get(), t);
    const size_t starts[3] = {0, size / 2, size > kWindow ? size - kWindow : 0};
    for (size_t s : starts) {
      const size_t n = std::min(kWindow, size - std::min(s, size));
      if (n == 0) continue;
      ok = ::pread(fd, buf.data(), n, static_cast<off_t>(off + s)) == static_cast<ssize_t>(n);
      if (!ok) break;
      h.Add(std::string_view(buf.data(), n));
      fp.sampled_bytes += n;
    }
  }
  ::close(fd);
  if (!ok)
    return MakeError(ErrorKind::kIo, "model file is shorter than its tensor table says",
                     {gguf.string()});
  fp.digest = h.Hex();

  if (!cached.empty()) {
    nlohmann::json j{{"digest", fp.digest},
                     {"tokenizer", fp.tokenizer},
                     {"chat_template", fp.chat_template},
                     {"path", fs::absolute(gguf).string()}};
    (void)WriteFileAtomic(cached, j.dump(1) + "\n");  // a cache: failure only costs time
  }
  return fp;
}

}  // namespace strata
