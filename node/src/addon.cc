// addon.cc: the N-API addon of the Node package, over libstrata's C ABI (include/strata.h) only.
// Strings and buffers cross as they are; index.js parses the JSON. Every C error (errptr)
// becomes a thrown Error with the library's message ("path:line:col: error: message").
#include <napi.h>

#include <string>

#include "strata.h"

namespace {

// Owns a malloc'd result of the C ABI.
struct Owned {
  char* p = nullptr;
  ~Owned() { strata_free(p); }
};

// Throws the error in `err` (freeing it) when set; returns true when it threw.
bool Failed(Napi::Env env, char* err) {
  if (err == nullptr) return false;
  std::string message(err);
  strata_free(err);
  Napi::Error::New(env, message).ThrowAsJavaScriptException();
  return true;
}

// A string argument, or "" for undefined/null (the C side then takes its default).
std::string Text(const Napi::Value& v) {
  return v.IsString() ? v.As<Napi::String>().Utf8Value() : std::string();
}
const char* OrNull(const std::string& s) { return s.empty() ? nullptr : s.c_str(); }

// The bytes of a Buffer or string argument.
std::string Bytes(const Napi::Value& v) {
  if (v.IsBuffer()) {
    auto b = v.As<Napi::Buffer<char>>();
    return std::string(b.Data(), b.Length());
  }
  return Text(v);
}

Napi::Value StringResult(Napi::Env env, char* out, char* err) {
  Owned owned{out};
  if (Failed(env, err)) return env.Undefined();
  return Napi::String::New(env, out);
}

Napi::Value Version(const Napi::CallbackInfo& info) {
  return Napi::String::New(info.Env(), strata_version());
}

Napi::Value HasLocal(const Napi::CallbackInfo& info) {
  return Napi::Boolean::New(info.Env(), strata_has_local() != 0);
}

// compile(root, optionsJson) -> report JSON
Napi::Value Compile(const Napi::CallbackInfo& info) {
  char* err = nullptr;
  std::string root = Text(info[0]), options = Text(info[1]);
  char* out = strata_compile(root.c_str(), OrNull(options), &err);
  return StringResult(info.Env(), out, err);
}

// discover(dir, optionsJson) -> sources JSON
Napi::Value Discover(const Napi::CallbackInfo& info) {
  char* err = nullptr;
  std::string dir = Text(info[0]), options = Text(info[1]);
  char* out = strata_discover(dir.c_str(), OrNull(options), &err);
  return StringResult(info.Env(), out, err);
}

// replay(transcript, format, provider, optionsJson) -> report JSON
Napi::Value Replay(const Napi::CallbackInfo& info) {
  char* err = nullptr;
  std::string log = Bytes(info[0]), format = Text(info[1]), provider = Text(info[2]),
              options = Text(info[3]);
  char* out = strata_replay(log.data(), log.size(), OrNull(format), OrNull(provider),
                            OrNull(options), &err);
  return StringResult(info.Env(), out, err);
}

// explain(a, b, optionsJson) -> explanation JSON
Napi::Value Explain(const Napi::CallbackInfo& info) {
  char* err = nullptr;
  std::string a = Bytes(info[0]), b = Bytes(info[1]), options = Text(info[2]);
  char* out = strata_explain(a.data(), a.size(), b.data(), b.size(), OrNull(options), &err);
  return StringResult(info.Env(), out, err);
}

// An assembling session (strata_session_t).
class Session : public Napi::ObjectWrap<Session> {
 public:
  static Napi::Function Define(Napi::Env env) {
    return DefineClass(
        env, "Session",
        {InstanceMethod("update", &Session::Update),
         InstanceMethod("beginTurn", &Session::BeginTurn),
         InstanceMethod("append", &Session::Append), InstanceMethod("compact", &Session::Compact),
         InstanceMethod("render", &Session::Render), InstanceMethod("close", &Session::Close)});
  }

  // new Session(documentJson)
  explicit Session(const Napi::CallbackInfo& info) : Napi::ObjectWrap<Session>(info) {
    char* err = nullptr;
    std::string document = Text(info[0]);
    handle_ = strata_session_create(document.c_str(), &err);
    Failed(info.Env(), err);
  }
  ~Session() override { strata_session_destroy(handle_); }

 private:
  using Call = int (*)(strata_session_t*, const char*, char**);
  Napi::Value Int(const Napi::CallbackInfo& info, Call call) {
    char* err = nullptr;
    std::string arg = Text(info[0]);
    call(handle_, arg.c_str(), &err);
    Failed(info.Env(), err);
    return info.Env().Undefined();
  }
  Napi::Value Update(const Napi::CallbackInfo& info) { return Int(info, strata_session_update); }
  Napi::Value BeginTurn(const Napi::CallbackInfo& info) {
    return Int(info, strata_session_begin_turn);
  }
  Napi::Value Append(const Napi::CallbackInfo& info) { return Int(info, strata_session_append); }
  Napi::Value Compact(const Napi::CallbackInfo& info) { return Int(info, strata_session_compact); }

  // render(provider) -> [Buffer request, layers JSON]
  Napi::Value Render(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    char* err = nullptr;
    char* layers = nullptr;
    size_t length = 0;
    std::string provider = Text(info[0]);
    char* body = strata_session_render(handle_, provider.c_str(), &length, &layers, &err);
    Owned owned_body{body}, owned_layers{layers};
    if (Failed(env, err)) return env.Undefined();
    Napi::Array out = Napi::Array::New(env, 2);
    out.Set(uint32_t{0}, Napi::Buffer<char>::Copy(env, body, length));
    out.Set(uint32_t{1}, Napi::String::New(env, layers != nullptr ? layers : "{}"));
    return out;
  }

  Napi::Value Close(const Napi::CallbackInfo& info) {
    strata_session_destroy(handle_);
    handle_ = nullptr;
    return info.Env().Undefined();
  }

  strata_session_t* handle_ = nullptr;
};

// A cache accountant (strata_accountant_t).
class Accountant : public Napi::ObjectWrap<Accountant> {
 public:
  static Napi::Function Define(Napi::Env env) {
    return DefineClass(env, "Accountant",
                       {InstanceMethod("account", &Accountant::Account),
                        InstanceMethod("close", &Accountant::Close)});
  }

  // new Accountant(cacheModel, optionsJson)
  explicit Accountant(const Napi::CallbackInfo& info) : Napi::ObjectWrap<Accountant>(info) {
    char* err = nullptr;
    std::string model = Text(info[0]), options = Text(info[1]);
    handle_ = strata_accountant_create(model.c_str(), OrNull(options), &err);
    Failed(info.Env(), err);
  }
  ~Accountant() override { strata_accountant_destroy(handle_); }

 private:
  // account(request, provider, timeS) -> usage JSON
  Napi::Value Account(const Napi::CallbackInfo& info) {
    char* err = nullptr;
    std::string request = Bytes(info[0]), provider = Text(info[1]);
    double time_s = info[2].IsNumber() ? info[2].As<Napi::Number>().DoubleValue() : 0.0;
    char* out = strata_accountant_account(handle_, request.data(), request.size(), provider.c_str(),
                                          time_s, &err);
    return StringResult(info.Env(), out, err);
  }

  Napi::Value Close(const Napi::CallbackInfo& info) {
    strata_accountant_destroy(handle_);
    handle_ = nullptr;
    return info.Env().Undefined();
  }

  strata_accountant_t* handle_ = nullptr;
};

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  exports.Set("version", Napi::Function::New(env, Version));
  exports.Set("hasLocal", Napi::Function::New(env, HasLocal));
  exports.Set("compile", Napi::Function::New(env, Compile));
  exports.Set("discover", Napi::Function::New(env, Discover));
  exports.Set("replay", Napi::Function::New(env, Replay));
  exports.Set("explain", Napi::Function::New(env, Explain));
  exports.Set("Session", Session::Define(env));
  exports.Set("Accountant", Accountant::Define(env));
  return exports;
}

}  // namespace

NODE_API_MODULE(strata, Init)
