// strata_c.cc: the C ABI (include/strata.h) over the public C++ API: memory, version, compile,
// discover, replay and explain. The assembling session is in capi_assemble.cc, local sessions in
// capi_local.cc. Every entry point catches what the C++ side may throw (allocation failure) so
// that no exception crosses into C.
#include "strata.h"

#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>

#include "capi/capi_internal.h"
#include "strata/accounting.h"
#include "strata/compile.h"
#include "strata/discover.h"
#include "strata/replay.h"

namespace strata::capi {

char* CopyOut(std::string_view bytes) {
  char* out = static_cast<char*>(std::malloc(bytes.size() + 1));
  if (out == nullptr) return nullptr;
  std::memcpy(out, bytes.data(), bytes.size());
  out[bytes.size()] = '\0';
  return out;
}

void SetError(char** errptr, const Error& error) {
  if (errptr == nullptr) return;
  std::free(*errptr);
  *errptr = CopyOut(FormatError(error));
}

void SetError(char** errptr, ErrorKind kind, const std::string& message) {
  SetError(errptr, Error{kind, message, {}});
}

Status ParseOptions(const char* options_json, std::string_view what, nlohmann::json* out) {
  *out = nlohmann::json::object();
  if (options_json == nullptr || *options_json == '\0') return {};
  *out = nlohmann::json::parse(options_json, nullptr, /*allow_exceptions=*/false);
  if (out->is_discarded()) {
    return MakeError(ErrorKind::kParse, std::string(what) + ": options are not valid JSON");
  }
  if (!out->is_object()) {
    return MakeError(ErrorKind::kInvalidArgument,
                     std::string(what) + ": options must be a JSON object");
  }
  return {};
}

namespace {

template <typename T>
Status OptionOf(const nlohmann::json& options, const char* key, bool ok, const char* type, T* out) {
  if (!options.contains(key)) return {};
  if (!ok) {
    return MakeError(ErrorKind::kInvalidArgument,
                     std::string("option '") + key + "' must be " + type);
  }
  *out = options[key].get<T>();
  return {};
}

}  // namespace

Status OptionString(const nlohmann::json& options, const char* key, std::string* out) {
  return OptionOf(options, key, options.contains(key) && options[key].is_string(), "a string", out);
}

Status OptionBool(const nlohmann::json& options, const char* key, bool* out) {
  return OptionOf(options, key, options.contains(key) && options[key].is_boolean(), "a boolean",
                  out);
}

Status OptionInt(const nlohmann::json& options, const char* key, int* out) {
  return OptionOf(options, key, options.contains(key) && options[key].is_number_integer(),
                  "an integer", out);
}

nlohmann::json DiagnosticsJson(const std::vector<Diagnostic>& diagnostics) {
  nlohmann::json out = nlohmann::json::array();
  for (const Diagnostic& d : diagnostics) {
    out.push_back({{"severity", SeverityName(d.severity)},
                   {"kind", d.kind},
                   {"message", d.message},
                   {"path", d.where.path},
                   {"line", d.where.line},
                   {"column", d.where.column}});
  }
  return out;
}

Error NullHandle(std::string_view function) {
  return {ErrorKind::kInvalidArgument,
          std::string(function) + ": the handle is NULL (create it first and check its errptr)",
          {}};
}

Error NotAvailable(std::string_view function) {
  return {ErrorKind::kNotFound,
          std::string(function) +
              " is not available: this libstrata was built without llama.cpp (run "
              "scripts/setup-llama.sh and rebuild with -DSTRATA_LLAMA_DIR=<its prefix>)",
          {}};
}

Result<std::unique_ptr<Tokenizer>> OptionTokenizer(const nlohmann::json& o,
                                                   std::string_view function) {
  std::string name = "auto", dir;
  STRATA_TRY(OptionString(o, "tokenizer", &name));
  STRATA_TRY(OptionString(o, "vocab_dir", &dir));
  if (name == "estimate") return MakeEstimateTokenizer();
#if STRATA_HAS_LOCAL
  if (name != "auto") return LoadNamedTokenizer(name, dir);
  // "auto": qwen2 when its file is found; a vocab_dir the caller named must hold it.
  auto vocab = LoadNamedTokenizer("qwen2", dir);
  if (vocab || !dir.empty() || vocab.error().kind != ErrorKind::kNotFound) return vocab;
  return MakeEstimateTokenizer();
#else
  if (name == "auto") return MakeEstimateTokenizer();
  return MakeError(ErrorKind::kNotFound,
                   std::string(function) + ": tokenizer '" + name +
                       "' is a llama.cpp vocabulary, and this libstrata was built without "
                       "llama.cpp; use \"estimate\" (or \"auto\"), or rebuild with "
                       "-DSTRATA_LLAMA_DIR=<scripts/setup-llama.sh's prefix>");
#endif
}

namespace {

Result<std::string> CompileJson(const char* root_dir, const char* options_json) {
  nlohmann::json o;
  STRATA_TRY(ParseOptions(options_json, "strata_compile", &o));
  CompileOptions options;
  options.root = root_dir != nullptr ? root_dir : ".";
  bool verify = false;
  STRATA_TRY(OptionBool(o, "verify", &verify));
  STRATA_TRY(OptionBool(o, "force", &options.force));
  options.write = !verify;
  if (o.contains("targets")) {
    if (!o["targets"].is_array()) {
      return MakeError(ErrorKind::kInvalidArgument, "option 'targets' must be an array of ids");
    }
    for (const auto& id : o["targets"]) {
      if (!id.is_string()) {
        return MakeError(ErrorKind::kInvalidArgument, "option 'targets' must hold strings");
      }
      options.targets.push_back(id.get<std::string>());
    }
  }
  STRATA_TRY_ASSIGN(CompileReport report, Compile(options));
  nlohmann::json targets = nlohmann::json::array();
  for (const TargetReport& t : report.targets) {
    targets.push_back({{"id", t.id},
                       {"path", t.path},
                       {"status", TargetStatusName(t.status)},
                       {"bytes", t.bytes},
                       {"detail", t.detail}});
  }
  nlohmann::json out = {{"ok", report.ok},
                        {"source", report.source},
                        {"targets", targets},
                        {"diagnostics", DiagnosticsJson(report.diagnostics)}};
  return out.dump();
}

Result<std::string> DiscoverJson(const char* dir, const char* options_json) {
  nlohmann::json o;
  STRATA_TRY(ParseOptions(options_json, "strata_discover", &o));
  DiscoverOptions options;
  options.working_dir = dir != nullptr ? dir : ".";
  std::string root;
  bool content = false;
  STRATA_TRY(OptionString(o, "project_root", &root));
  STRATA_TRY(OptionBool(o, "content", &content));
  options.project_root = root;
  STRATA_TRY_ASSIGN(Discovery found, Discover(options));
  nlohmann::json sources = nlohmann::json::array();
  for (const Source& s : found.sources) {
    nlohmann::json one = {{"path", s.display_path},
                          {"origin", SourceOriginName(s.origin)},
                          {"bytes", s.bytes},
                          {"truncated", s.truncated}};
    if (content) one["content"] = s.content;
    sources.push_back(std::move(one));
  }
  nlohmann::json out = {{"project_root", found.project_root.string()},
                        {"sources", sources},
                        {"diagnostics", DiagnosticsJson(found.diagnostics)}};
  return out.dump();
}

Result<std::string> ReplayJson(std::string_view bytes, const char* format, const char* provider,
                               const char* options_json) {
  nlohmann::json o;
  STRATA_TRY(ParseOptions(options_json, "strata_replay", &o));
  ReplayOptions options;
  STRATA_TRY_ASSIGN(options.cache.kind,
                    ParseCacheModelKind(provider != nullptr ? provider : "anthropic"));
  std::string layout = "strata";
  STRATA_TRY(OptionString(o, "layout", &layout));
  STRATA_TRY_ASSIGN(options.layout, ParseReplayLayout(layout));
  STRATA_TRY(OptionString(o, "model", &options.model));
  STRATA_TRY(OptionInt(o, "long_ttl", &options.long_ttl_breakpoints));
  STRATA_TRY_ASSIGN(TranscriptFormat log_format,
                    ParseTranscriptFormat(format != nullptr ? format : "strata"));
  STRATA_TRY_ASSIGN(auto tokenizer, OptionTokenizer(o, "strata_replay"));
  STRATA_TRY_ASSIGN(ReplayReport report,
                    ReplayLog(bytes, "transcript", log_format, *tokenizer, options));
  return FormatReplayJson(report);
}

Result<std::string> ExplainJson(std::string_view a, std::string_view b, const char* options_json) {
  nlohmann::json o;
  STRATA_TRY(ParseOptions(options_json, "strata_explain", &o));
  STRATA_TRY_ASSIGN(ExplainInput in_a, ParseExplainInput(a, "a"));
  STRATA_TRY_ASSIGN(ExplainInput in_b, ParseExplainInput(b, "b"));
  STRATA_TRY_ASSIGN(auto tokenizer, OptionTokenizer(o, "strata_explain"));
  STRATA_TRY_ASSIGN(Explanation e, Explain(in_a, in_b, *tokenizer));
  return FormatExplanationJson(e);
}

}  // namespace

}  // namespace strata::capi

using strata::capi::Deliver;

extern "C" {

void strata_free(void* ptr) { std::free(ptr); }

const char* strata_version(void) { return STRATA_VERSION; }

int strata_has_local(void) { return STRATA_HAS_LOCAL; }

char* strata_compile(const char* root_dir, const char* options_json, char** errptr) {
  return Deliver(errptr, [&] { return strata::capi::CompileJson(root_dir, options_json); });
}

char* strata_discover(const char* dir, const char* options_json, char** errptr) {
  return Deliver(errptr, [&] { return strata::capi::DiscoverJson(dir, options_json); });
}

char* strata_replay(const char* transcript, size_t transcript_len, const char* format,
                    const char* provider, const char* options_json, char** errptr) {
  return Deliver(errptr, [&] {
    return strata::capi::ReplayJson(std::string_view(transcript, transcript_len), format, provider,
                                    options_json);
  });
}

char* strata_explain(const char* a, size_t a_len, const char* b, size_t b_len,
                     const char* options_json, char** errptr) {
  return Deliver(errptr, [&] {
    return strata::capi::ExplainJson(std::string_view(a, a_len), std::string_view(b, b_len),
                                     options_json);
  });
}

}  // extern "C"
