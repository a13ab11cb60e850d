// record_server.cc: the pass-through endpoint of `strata record` (record.h). Each request
// is forwarded on its own thread with the harness's headers (credentials included) and body
// unchanged; the upstream's status and headers are answered as soon as they arrive and every body
// piece is written to the harness as it arrives (chunked), so a stream reaches the harness as the
// upstream sends it. When the upstream is done, a model request gets its line in the record file.
#include "strata/record.h"

#include <httplib.h>
#include <pthread.h>
#include <signal.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>

#include "base/json_reader.h"
#include "record/usage_scanner.h"

namespace strata {
namespace {

struct UpstreamUrl {
  std::string scheme_host_port;  // "https://api.anthropic.com", "http://127.0.0.1:8080"
  std::string prefix;            // "" or "/proxy": put before each request's path
};

Result<UpstreamUrl> ParseUpstream(std::string_view url) {
  size_t scheme_end = url.find("://");
  std::string_view scheme = url.substr(0, scheme_end);
  if (scheme_end == std::string_view::npos || (scheme != "http" && scheme != "https") ||
      scheme_end + 3 >= url.size()) {
    return MakeError(ErrorKind::kInvalidArgument,
                     "--upstream '" + std::string(url) +
                         "' is not an http:// or https:// URL (e.g. https://api.anthropic.com)");
  }
  size_t path_start = url.find('/', scheme_end + 3);
  UpstreamUrl out{std::string(url.substr(0, path_start)), ""};
  if (path_start != std::string_view::npos) out.prefix = std::string(url.substr(path_start));
  while (!out.prefix.empty() && out.prefix.back() == '/') out.prefix.pop_back();
  return out;
}

// Headers that belong to one connection, not to the request: the client library sets its own.
// Accept-Encoding is dropped too, so the upstream answers unencoded and the usage can be read.
bool IsConnectionHeader(const std::string& name) {
  for (const char* hop :
       {"host", "connection", "keep-alive", "content-length", "transfer-encoding", "te", "trailer",
        "upgrade", "proxy-connection", "accept-encoding", "content-type"}) {
    if (strcasecmp(name.c_str(), hop) == 0) return true;
  }
  return false;
}

bool IsJsonObject(const std::string& body) {
  auto parsed = ParseJson(body, "<request>");
  return parsed && parsed->is_object();
}

int64_t SteadyMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

int64_t UnixMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// What the server runs with; shared with the forwarding threads, which may outlive a handler.
struct Context {
  UpstreamUrl upstream;
  std::unique_ptr<RecordFile> file;
  int timeout_s = 600;
};

// One exchange in flight: the upstream thread fills it, the harness's response drains it.
struct Relay {
  std::mutex mutex;
  std::condition_variable changed;
  bool headers_ready = false;  // status and headers below are set
  bool done = false;           // the upstream response has ended (or failed)
  bool harness_gone = false;   // the harness closed its connection: stop reading upstream
  int status = 0;
  httplib::Headers headers;
  std::string error;  // why no response came, when none did
  std::deque<std::string> chunks;
};

httplib::Request UpstreamRequest(const httplib::Request& from, const UpstreamUrl& upstream) {
  httplib::Request req;
  req.method = from.method;
  std::string target = from.target;
  if (target.empty()) target = from.path;
  req.path = upstream.prefix + target;
  for (const auto& [name, value] : from.headers) {
    if (!IsConnectionHeader(name)) req.headers.emplace(name, value);
  }
  if (from.has_header("Content-Type")) {
    req.headers.emplace("Content-Type", from.get_header_value("Content-Type"));
  }
  req.body = from.body;
  return req;
}

void Forward(std::shared_ptr<Context> context, std::shared_ptr<Relay> relay, httplib::Request req,
             std::optional<RequestApi> api, int64_t start) {
  RecordedExchange exchange;
  exchange.started_ms = UnixMs();
  exchange.request_body = req.body;
  std::optional<UsageScanner> scanner;
  bool first_byte = true;
  req.response_handler = [&](const httplib::Response& response) {
    std::string type = response.get_header_value("Content-Type");
    if (api) scanner.emplace(*api, type.find("text/event-stream") != std::string::npos);
    std::lock_guard<std::mutex> lock(relay->mutex);
    relay->status = response.status;
    relay->headers = response.headers;
    relay->headers_ready = true;
    relay->changed.notify_all();
    return true;
  };
  req.content_receiver = [&](const char* data, size_t size, uint64_t, uint64_t) {
    if (first_byte) exchange.ttft_ms = SteadyMs() - start;
    first_byte = false;
    if (scanner) scanner->Feed(std::string_view(data, size));
    std::lock_guard<std::mutex> lock(relay->mutex);
    if (relay->harness_gone) return false;
    relay->chunks.emplace_back(data, size);
    relay->changed.notify_all();
    return true;
  };
  httplib::Client client(context->upstream.scheme_host_port);
  client.set_connection_timeout(30);
  client.set_read_timeout(context->timeout_s);
  client.set_write_timeout(context->timeout_s);
  client.set_url_encode(false);
  client.set_decompress(false);
  client.set_follow_location(false);
  httplib::Response response;
  httplib::Error error = httplib::Error::Success;
  bool sent = client.send(req, response, error);
  exchange.total_ms = SteadyMs() - start;
  if (first_byte) exchange.ttft_ms = exchange.total_ms;
  bool answered = false;
  {
    std::lock_guard<std::mutex> lock(relay->mutex);
    // httplib calls no response handler for a response without a body (HEAD, Claude Code's
    // connectivity check): its status and headers are taken from the response here.
    if (sent && !relay->headers_ready) {
      relay->status = response.status;
      relay->headers = response.headers;
      relay->headers_ready = true;
    }
    answered = relay->headers_ready;
    if (!sent && !answered) relay->error = httplib::to_string(error);
    relay->done = true;
    relay->changed.notify_all();
  }
  if (!api || !answered) return;
  exchange.api = *api;
  exchange.status = response.status;
  exchange.usage_json = scanner ? scanner->usage().dump() : "null";
  if (auto appended = context->file->Append(FormatRecordLine(exchange)); !appended) {
    std::fprintf(stderr, "strata record: error: %s\n", FormatError(appended.error()).c_str());
  }
}

// Streams the relay's body pieces to the harness until the upstream is done.
bool DrainRelay(Relay& relay, httplib::DataSink& sink) {
  std::unique_lock<std::mutex> lock(relay.mutex);
  relay.changed.wait(lock, [&] { return !relay.chunks.empty() || relay.done; });
  while (!relay.chunks.empty()) {
    std::string chunk = std::move(relay.chunks.front());
    relay.chunks.pop_front();
    lock.unlock();
    if (!sink.write(chunk.data(), chunk.size())) return false;
    lock.lock();
  }
  if (relay.done) sink.done();
  return true;
}

void Handle(const std::shared_ptr<Context>& context, const httplib::Request& req,
            httplib::Response& res) {
  int64_t start = SteadyMs();
  auto relay = std::make_shared<Relay>();
  std::optional<RequestApi> api;
  if (req.method == "POST") api = RecordedApiOfPath(req.path);
  if (api && !IsJsonObject(req.body)) {
    std::fprintf(stderr,
                 "strata record: warning: %s %s: the body is not a JSON object; forwarded, not "
                 "recorded\n",
                 req.method.c_str(), req.path.c_str());
    api.reset();
  }
  std::thread(Forward, context, relay, UpstreamRequest(req, context->upstream), api, start)
      .detach();
  std::unique_lock<std::mutex> lock(relay->mutex);
  relay->changed.wait(lock, [&] { return relay->headers_ready || relay->done; });
  if (!relay->headers_ready) {
    std::fprintf(stderr, "strata record: error: %s %s: the upstream %s did not answer (%s)\n",
                 req.method.c_str(), req.path.c_str(), context->upstream.scheme_host_port.c_str(),
                 relay->error.c_str());
    nlohmann::json body = {
        {"error",
         {{"type", "upstream_unreachable"},
          {"message", "strata record: the upstream did not answer: " + relay->error}}}};
    res.status = 502;
    res.set_content(body.dump(), "application/json");
    return;
  }
  res.status = relay->status;
  for (const auto& [name, value] : relay->headers) {
    if (!IsConnectionHeader(name) && strcasecmp(name.c_str(), "content-encoding") != 0) {
      res.headers.emplace(name, value);
    }
  }
  std::string type = relay->headers.count("Content-Type") > 0
                         ? relay->headers.find("Content-Type")->second
                         : std::string("application/octet-stream");
  lock.unlock();
  res.set_chunked_content_provider(
      type, [relay](size_t, httplib::DataSink& sink) { return DrainRelay(*relay, sink); },
      [relay](bool success) {
        std::lock_guard<std::mutex> guard(relay->mutex);
        if (!success) relay->harness_gone = true;
      });
}

// Stops `server` on SIGINT or SIGTERM (blocked in every thread, taken here) until `finished`.
void WaitForSignal(httplib::Server* server, const sigset_t* signals,
                   const std::atomic<bool>* finished) {
  timespec tick{0, 200 * 1000 * 1000};
  while (!finished->load()) {
    int sig = sigtimedwait(signals, nullptr, &tick);
    if (sig == SIGINT || sig == SIGTERM) {
      // httplib's stop() does nothing until listen_after_bind() has begun (it sets is_running
      // there): a signal just after the port was announced would be lost and the recorder would
      // run on, so wait for the listen to begin (or to have ended).
      while (!server->is_running() && !finished->load())
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      server->stop();
      return;
    }
  }
}

}  // namespace

Status RunRecordServer(const RecordServerOptions& options) {
  auto context = std::make_shared<Context>();
  STRATA_TRY_ASSIGN(context->upstream, ParseUpstream(options.upstream));
  size_t torn = 0;
  STRATA_TRY_ASSIGN(context->file, RecordFile::Open(options.out, &torn));
  if (torn > 0) {
    std::fprintf(stderr,
                 "strata record: warning: %s: the last line was cut short (a recorder killed "
                 "mid-write): its %zu bytes are set aside in %s.torn\n",
                 options.out.c_str(), torn, options.out.c_str());
  }
  context->timeout_s = options.upstream_timeout_s;
  httplib::Server server;
  server.set_read_timeout(300);
  server.set_write_timeout(300);
  auto handler = [context](const httplib::Request& req, httplib::Response& res) {
    Handle(context, req, res);
  };
  server.Get(".*", handler).Post(".*", handler).Put(".*", handler).Patch(".*", handler);
  server.Delete(".*", handler).Options(".*", handler);
  signal(SIGPIPE, SIG_IGN);
  sigset_t signals, previous;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, &previous);
  int port = options.listen_port;
  bool bound = port == 0 ? (port = server.bind_to_any_port(options.listen_host)) > 0
                         : server.bind_to_port(options.listen_host, port);
  if (!bound) {
    pthread_sigmask(SIG_SETMASK, &previous, nullptr);
    return MakeError(ErrorKind::kIo, "cannot listen on " + options.listen_host + ":" +
                                         std::to_string(options.listen_port) +
                                         " (in use? pick another --listen port)");
  }
  if (options.on_listening) options.on_listening(port);
  std::atomic<bool> finished{false};
  std::thread waiter(WaitForSignal, &server, &signals, &finished);
  server.listen_after_bind();
  finished = true;
  waiter.join();
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  return {};
}

}  // namespace strata
