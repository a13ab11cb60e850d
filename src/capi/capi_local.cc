// capi_local.cc: local sessions of the C ABI (strata_local_session_*, include/strata.h) over
// LocalModel, CheckpointStore and LocalSession. In a build without llama.cpp
// (STRATA_HAS_LOCAL 0) every function fails with a "not available" error.
#include "capi/capi_internal.h"
#include "strata.h"

#if STRATA_HAS_LOCAL
#include <memory>

#include "strata/checkpoint.h"
#include "strata/local_session.h"

struct strata_local_session_t {
  std::unique_ptr<strata::LocalModel> model;
  std::unique_ptr<strata::CheckpointStore> store;
  std::unique_ptr<strata::LocalSession> session;
  strata::GenerateOptions generate;
};

namespace strata::capi {
namespace {

Result<std::unique_ptr<strata_local_session_t>> CreateLocal(const char* model_path,
                                                            const char* options_json) {
  nlohmann::json o;
  STRATA_TRY(ParseOptions(options_json, "strata_local_session_create", &o));
  std::string project, store_dir, system;
  int ctx = 0;
  auto out = std::make_unique<strata_local_session_t>();
  STRATA_TRY(OptionString(o, "project", &project));
  STRATA_TRY(OptionString(o, "checkpoint_dir", &store_dir));
  STRATA_TRY(OptionString(o, "system", &system));
  STRATA_TRY(OptionInt(o, "ctx", &ctx));
  STRATA_TRY(OptionInt(o, "max_tokens", &out->generate.max_tokens));
  STRATA_TRY_ASSIGN(out->model, LocalModel::Load(model_path != nullptr ? model_path : ""));
  CheckpointStoreOptions store;
  store.dir = store_dir.empty() ? DefaultCheckpointDir() : std::filesystem::path(store_dir);
  STRATA_TRY_ASSIGN(out->store, CheckpointStore::Open(store));
  SessionConfig config;
  config.project_root = project;
  config.system_instructions = system;
  EngineOptions engine;
  if (ctx > 0) engine.n_ctx = static_cast<uint32_t>(ctx);
  out->session = std::make_unique<LocalSession>(*out->model, *out->store, config, engine);
  return out;
}

Result<std::string> SubmitLocal(strata_local_session_t* s, const char* message) {
  if (s == nullptr) return tl::unexpected(NullHandle("strata_local_session_submit"));
  STRATA_TRY_ASSIGN(LocalTurnReport r,
                    s->session->Submit(message != nullptr ? message : "", {}, s->generate));
  nlohmann::json out = {{"turn", r.turn},
                        {"checkpoint", CheckpointOutcomeName(r.checkpoint)},
                        {"rebuild_reason", r.rebuild_reason},
                        {"key", r.key},
                        {"stored", r.stored},
                        {"prefix_tokens", r.prefix_tokens},
                        {"suffix_tokens", r.suffix_tokens},
                        {"restore_ms", r.restore_ms},
                        {"prefill_ms", r.prefill_ms},
                        {"saved_ms", r.saved_ms},
                        {"first_token_ms", r.first_token_ms},
                        {"title", r.title},
                        {"reply", r.reply},
                        {"generated_tokens", r.generated_tokens}};
  return out.dump();
}

}  // namespace
}  // namespace strata::capi

extern "C" {

strata_local_session_t* strata_local_session_create(const char* model_path,
                                                    const char* options_json, char** errptr) {
  return strata::capi::DeliverHandle(
      errptr, [&] { return strata::capi::CreateLocal(model_path, options_json); });
}

void strata_local_session_destroy(strata_local_session_t* session) { delete session; }

char* strata_local_session_submit(strata_local_session_t* session, const char* message,
                                  char** errptr) {
  return strata::capi::Deliver(errptr, [&] { return strata::capi::SubmitLocal(session, message); });
}

}  // extern "C"

#else  // !STRATA_HAS_LOCAL

struct strata_local_session_t {};

extern "C" {

strata_local_session_t* strata_local_session_create(const char* /*model_path*/,
                                                    const char* /*options_json*/, char** errptr) {
  strata::capi::SetError(errptr, strata::capi::NotAvailable("strata_local_session_create"));
  return nullptr;
}

void strata_local_session_destroy(strata_local_session_t* session) { delete session; }

char* strata_local_session_submit(strata_local_session_t* /*session*/, const char* /*message*/,
                                  char** errptr) {
  strata::capi::SetError(errptr, strata::capi::NotAvailable("strata_local_session_submit"));
  return nullptr;
}

}  // extern "C"

#endif  // STRATA_HAS_LOCAL
