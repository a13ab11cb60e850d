// usage_scan.cc: finding the user's logs and reading them into sessions (replay.h ScanUsage).
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "base/time.h"
#include "io/file_io.h"
#include "strata/replay.h"
#include "transcripts/claude_code_log.h"
#include "transcripts/codex_rollout.h"
#include "transcripts/json_lines.h"
#include "usage/opencode_chains.h"
#include "usage/opencode_store.h"
#include "usage/usage_chain.h"

namespace strata {
namespace {

namespace fs = std::filesystem;

std::string Env(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr ? v : "";
}

// The comma-separated directories of `list` (CLAUDE_CONFIG_DIR may name several), trimmed.
std::vector<fs::path> DirList(const std::string& list) {
  std::vector<fs::path> out;
  size_t at = 0;
  while (at <= list.size()) {
    size_t comma = list.find(',', at);
    if (comma == std::string::npos) comma = list.size();
    std::string d = list.substr(at, comma - at);
    const size_t b = d.find_first_not_of(" \t"), e = d.find_last_not_of(" \t");
    if (b != std::string::npos) out.emplace_back(d.substr(b, e - b + 1));
    at = comma + 1;
  }
  return out;
}

// The log roots: the options' overrides, else (unless `home` was given explicitly) the harnesses'
// own environment variables, else their defaults under `home`.
struct Roots {
  std::vector<fs::path> claude;  // read in this order
  fs::path codex, opencode;
};

Roots RootsFor(const UsageOptions& o) {
  const bool env = !o.home_explicit;  // an explicit --home beats the environment
  Roots r;
  if (!o.claude_projects.empty()) {
    r.claude.push_back(o.claude_projects);
  } else {
    for (const auto& d : DirList(env ? Env("CLAUDE_CONFIG_DIR") : "")) {
      r.claude.push_back(d / "projects");
    }
    if (r.claude.empty()) {
      // Newer Claude Code logs under $XDG_CONFIG_HOME/claude (~/.config/claude), older under
      // ~/.claude: both are read (as ccusage does).
      std::string xdg = env ? Env("XDG_CONFIG_HOME") : "";
      r.claude.push_back((xdg.empty() ? o.home / ".config" : fs::path(xdg)) / "claude" /
                         "projects");
      r.claude.push_back(o.home / ".claude" / "projects");
    }
  }
  r.codex = o.codex_sessions;
  if (r.codex.empty()) {
    std::string dir = env ? Env("CODEX_HOME") : "";
    r.codex = dir.empty() ? o.home / ".codex" / "sessions" : fs::path(dir) / "sessions";
  }
  r.opencode = o.opencode_storage;
  if (r.opencode.empty()) {
    std::string dir = env ? Env("XDG_DATA_HOME") : "";
    r.opencode =
        (dir.empty() ? o.home / ".local" / "share" : fs::path(dir)) / "opencode" / "storage";
  }
  return r;
}

// The error of a file that could not be read as "path: error: what" (the I/O errors name the
// path in their message too: not twice).
std::string ReadErrorText(const fs::path& f, const Error& e) {
  std::string what = e.message;
  if (const std::string prefix = f.string() + ": "; what.starts_with(prefix)) {
    what = what.substr(prefix.size());
  }
  return f.string() + ": error: " + what;
}

// A log's bytes: read into memory, or above `map_above` bytes mapped read-only (the pages are
// the file's, read as the lines are: a log of several GiB does not need as much memory).
class LogBytes {
 public:
  LogBytes() = default;
  LogBytes(const LogBytes&) = delete;
  LogBytes& operator=(const LogBytes&) = delete;
  ~LogBytes() {
    if (map_ != nullptr) ::munmap(map_, size_);
  }

  Status Load(const fs::path& f, size_t map_above) {
    std::error_code ec;
    const uintmax_t size = fs::file_size(f, ec);
    if (ec || size <= map_above) {
      STRATA_TRY_ASSIGN(bytes_, ReadFileBytes(f, std::max<size_t>(map_above, size_t{1} << 28)));
      return {};
    }
    const int fd = ::open(f.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      return MakeError(ErrorKind::kIo, f.string() + ": " + std::strerror(errno), {f.string()});
    }
    void* p = ::mmap(nullptr, size_t(size), PROT_READ, MAP_PRIVATE, fd, 0);
    const int err = errno;
    ::close(fd);
    if (p == MAP_FAILED) {
      return MakeError(ErrorKind::kIo, f.string() + ": cannot map it: " + std::strerror(err),
                       {f.string()});
    }
    map_ = p;
    size_ = size_t(size);
    ::madvise(map_, size_, MADV_SEQUENTIAL);
    return {};
  }

  std::string_view view() const {
    return map_ != nullptr ? std::string_view(static_cast<const char*>(map_), size_) : bytes_;
  }

 private:
  std::string bytes_;
  void* map_ = nullptr;
  size_t size_ = 0;
};

// The seconds since 1970 of `since` (YYYY-MM-DD or YYYYMMDD, UTC midnight); 0 for "".
Result<double> SinceSeconds(const std::string& since) {
  if (since.empty()) return 0.0;
  std::string d = since;
  if (d.size() == 8 && d.find('-') == std::string::npos) {
    d = d.substr(0, 4) + "-" + d.substr(4, 2) + "-" + d.substr(6, 2);
  }
  auto s = ParseRfc3339Seconds(d + "T00:00:00Z");
  if (!s) {
    return MakeError(ErrorKind::kInvalidArgument,
                     "--since '" + since + "' is not a date: write YYYY-MM-DD or YYYYMMDD (UTC)");
  }
  return *s;
}

// A file last written before `since_s` holds no request to count.
bool WrittenBefore(const fs::path& path, double since_s) {
  if (since_s <= 0) return false;
  std::error_code ec;
  auto t = fs::last_write_time(path, ec);
  if (ec) return false;
  auto sys = std::chrono::file_clock::to_sys(t);
  double s = std::chrono::duration<double>(sys.time_since_epoch()).count();
  return s < since_s;
}

std::string CwdOf(const Transcript& t) {
  for (const auto& e : t.events) {
    if (e.kind == TranscriptEventKind::kContext && !e.context.cwd.empty()) return e.context.cwd;
  }
  return "";
}

class Scanner {
 public:
  Scanner(const UsageOptions& o, double since_s) : o_(o), since_s_(since_s) {}

  void Run() {
    Roots roots = RootsFor(o_);
    std::vector<fs::path> claude, looked;
    std::set<std::string> claude_dirs;  // shared: a root linked into another is read once
    for (const auto& root : roots.claude) {
      std::vector<fs::path> files = FilesUnder(root, ".jsonl", &claude_dirs);
      claude.insert(claude.end(), files.begin(), files.end());
      looked.push_back(root);
    }
    std::set<std::string> codex_dirs, opencode_dirs;
    std::vector<fs::path> codex = FilesUnder(roots.codex, ".jsonl", &codex_dirs);
    std::vector<fs::path> opencode =
        FilesUnder(roots.opencode / "message", ".json", &opencode_dirs);
    looked.push_back(roots.codex);
    // opencode's data directory: its databases (1.2 and later) and the older storage/ in it.
    looked.push_back(roots.opencode.parent_path());
    WarnMissingRoots(looked);
    total_ = claude.size() + codex.size() + opencode.size();
    ClaudeCode(claude);
    for (const auto& f : codex) Codex(f);
    OpenCode(roots.opencode, opencode);
  }

  UsageReport Finish() {
    UsageReport r;
    for (auto& [key, s] : sessions_) {
      if (s.totals.requests == 0) continue;
      if (!o_.project.empty() && s.project.find(o_.project) == std::string::npos &&
          s.path.find(o_.project) == std::string::npos) {
        continue;
      }
      r.totals.Add(s.totals);
      for (const auto& d : days_[key]) {
        auto it = std::find_if(r.days.begin(), r.days.end(),
                               [&](const DayUsage& x) { return x.date == d.date; });
        if (it == r.days.end()) {
          r.days.push_back(d);
        } else {
          it->totals.Add(d.totals);
        }
      }
      r.sessions.push_back(std::move(s));
    }
    std::sort(r.days.begin(), r.days.end(),
              [](const DayUsage& a, const DayUsage& b) { return a.date < b.date; });
    std::sort(r.sessions.begin(), r.sessions.end(),
              [](const SessionUsage& a, const SessionUsage& b) {
                if (a.totals.lost_cost != b.totals.lost_cost)
                  return a.totals.lost_cost > b.totals.lost_cost;
                if (a.totals.cost != b.totals.cost) return a.totals.cost > b.totals.cost;
                return a.source + a.id < b.source + b.id;
              });
    r.files = files_;
    r.skipped_lines = skipped_lines_;
    for (const auto& [model, price] : unpriced_) {
      warnings_.push_back(fmt::format(
          "model '{}' is not in the price table: priced at ${:g}/${:g} per million input/output "
          "tokens, its provider's default; its costs are a guess (docs/usage.md, \"Prices\")",
          model, price.input, price.output));
    }
    r.warnings = std::move(warnings_);
    r.skipped = std::move(skipped_);
    return r;
  }

 private:
  // A log that cannot be read: named with its error (path:line:col when the reader has one) in
  // the report's skipped list and its warnings; the other logs still count.
  void Skip(const fs::path& f, const std::string& error) {
    skipped_.push_back({f.string(), error});
    warnings_.push_back(error + " (file skipped)");
  }

  // Every regular file under `root` whose name ends in `ext`, sorted (deterministic order).
  // Symlinked directories are followed, each directory read once by its canonical path (`seen`:
  // a link cycle ends there). A directory that cannot be read is a warning naming it.
  std::vector<fs::path> FilesUnder(const fs::path& root, std::string_view ext,
                                   std::set<std::string>* seen) {
    std::vector<fs::path> out;
    std::error_code ec;
    if (!fs::exists(root, ec)) return out;  // WarnMissingRoots
    std::vector<fs::path> dirs{root};
    while (!dirs.empty()) {
      const fs::path dir = std::move(dirs.back());
      dirs.pop_back();
      const fs::path canonical = fs::canonical(dir, ec);
      if (ec) {
        warnings_.push_back(dir.string() + ": cannot be resolved (" + ec.message() +
                            "): the logs under it are not counted");
        continue;
      }
      if (!seen->insert(canonical.string()).second) continue;
      fs::directory_iterator it(dir, ec), end;
      if (ec) {
        warnings_.push_back(dir.string() + ": cannot be read (" + ec.message() +
                            "): the logs under it are not counted");
        continue;
      }
      for (; it != end; it.increment(ec)) {
        if (ec) break;
        std::error_code kind;
        if (it->is_directory(kind)) {  // follows a link
          dirs.push_back(it->path());
        } else if (it->is_regular_file(kind) && it->path().string().ends_with(ext)) {
          out.push_back(it->path());
        }
      }
      if (ec) {
        warnings_.push_back(dir.string() + ": cannot be read to the end (" + ec.message() +
                            "): some logs under it may not be counted");
      }
    }
    std::sort(out.begin(), out.end());
    return out;
  }

  // An override that names no directory, or a --home with none of the roots, is a warning
  // saying where strata looked (a mistyped path is not an empty report without a word).
  void WarnMissingRoots(const std::vector<fs::path>& looked) {
    std::error_code ec;
    const std::pair<const fs::path*, const char*> overrides[] = {
        {&o_.claude_projects, "--claude-projects"},
        {&o_.codex_sessions, "--codex-sessions"},
        {&o_.opencode_storage, "--opencode-storage"}};
    for (const auto& [dir, flag] : overrides) {
      if (!dir->empty() && !fs::exists(*dir, ec)) {
        warnings_.push_back(dir->string() + ": no such directory (" + flag + ")");
      }
    }
    if (!o_.home_explicit) return;
    for (const auto& dir : looked) {
      if (fs::exists(dir, ec)) return;
    }
    std::string list;
    for (const auto& dir : looked) list += (list.empty() ? "" : ", ") + dir.string();
    warnings_.push_back(o_.home.string() + ": no agent logs found under this home (looked at " +
                        list + ")");
  }

  void Done() {
    ++files_;
    if (o_.progress) o_.progress(files_, total_);
  }

  // The session `key`, created with `source`, `id` and `path` on first use.
  SessionUsage& Session(const std::string& source, const std::string& id, const fs::path& path) {
    auto [it, inserted] = sessions_.try_emplace(source + "/" + id);
    if (inserted) {
      it->second.source = source;
      it->second.id = id;
      it->second.path = path.string();
    }
    return it->second;
  }

  void AddChain(SessionUsage& s, const std::string& label, const std::vector<LogRequest>& reqs,
                bool automatic, const std::string& provider = "") {
    ChainContext ctx{automatic, since_s_, &seen_ids_, provider, &unpriced_};
    UsageChain chain =
        AccountChain(label, reqs, ctx, &s.totals, &days_[s.source + "/" + s.id], &s.models);
    if (chain.requests.empty()) return;
    if (s.first_time.empty() || chain.requests.front().time < s.first_time)
      s.first_time = chain.requests.front().time;
    if (chain.requests.back().time > s.last_time) s.last_time = chain.requests.back().time;
    s.chains.push_back(std::move(chain));
  }

  // A transcript's warnings and skipped lines, into the report's.
  void Take(Transcript& t) {
    for (auto& w : t.warnings) warnings_.push_back(std::move(w));
    skipped_lines_ += t.skipped_lines;
  }

  // Claude Code: <project>/<session>.jsonl, its subagents under <project>/<session>/subagents/;
  // older versions wrote a subagent flat as <project>/agent-<id>.jsonl, its lines carrying the
  // sessionId of the session it ran in: folded into that session as a chain too.
  void ClaudeCode(const std::vector<fs::path>& files) {
    for (const auto& f : files) {
      Done();
      if (WrittenBefore(f, since_s_)) continue;
      const bool subagent = f.parent_path().filename() == "subagents";
      const fs::path session_dir = subagent ? f.parent_path().parent_path() : fs::path();
      std::string id = subagent ? session_dir.filename().string() : f.stem().string();
      LogBytes bytes;
      if (Status loaded = bytes.Load(f, o_.map_above_bytes); !loaded) {
        Skip(f, ReadErrorText(f, loaded.error()));
        continue;
      }
      auto chains = ImportClaudeCodeChains(bytes.view(), f.string());
      if (!chains) {
        Skip(f, FormatError(chains.error()));
        continue;
      }
      Take(chains->main);
      Take(chains->sidechain);
      fs::path session_path = subagent ? fs::path(session_dir.string() + ".jsonl") : f;
      const bool flat_agent = !subagent && f.stem().string().starts_with("agent-") &&
                              !chains->session_id.empty() && chains->session_id != id;
      if (flat_agent) {
        id = chains->session_id;
        session_path = f.parent_path() / (id + ".jsonl");
      }
      SessionUsage& s = Session("claude-code", id, session_path);
      if (s.project.empty()) s.project = CwdOf(chains->main);
      if (s.project.empty()) s.project = CwdOf(chains->sidechain);
      // A subagent's file holds only sidechain lines. Older Claude Code logged its subagents in
      // the session's file, interleaved: counted as one more chain.
      const bool agent = subagent || flat_agent;
      AddChain(s, agent ? f.stem().string() : "main", RequestsOf(chains->main), false);
      AddChain(s, agent ? f.stem().string() : "sidechains", RequestsOf(chains->sidechain), false);
    }
  }

  void Codex(const fs::path& f) {
    Done();
    if (WrittenBefore(f, since_s_)) return;
    LogBytes bytes;
    if (Status loaded = bytes.Load(f, o_.map_above_bytes); !loaded) {
      Skip(f, ReadErrorText(f, loaded.error()));
      return;
    }
    auto t = ImportCodexRollout(bytes.view(), f.string());
    if (!t) {
      Skip(f, FormatError(t.error()));
      return;
    }
    Take(*t);
    std::vector<LogRequest> reqs = RequestsOf(*t);
    // A rollout that names no model (no turn_context with one): priced at its provider's
    // default, said once for the file.
    if (std::any_of(reqs.begin(), reqs.end(),
                    [](const LogRequest& r) { return r.model.empty(); })) {
      warnings_.push_back(f.string() +
                          ": no model named (no turn_context gives one): its "
                          "requests are priced at the default of provider '" +
                          t->provider + "' (docs/usage.md, \"Prices\")");
    }
    SessionUsage& s = Session("codex", f.stem().string(), f);
    s.project = CwdOf(*t);
    AddChain(s, "main", reqs, t->provider == "openai" || t->provider == "azure", t->provider);
  }

  // opencode: its SQLite databases beside `root` (opencode_store.h), then the old JSON store,
  // storage/message/<session>/<message>.json (opencode_chains.h); a message both hold (opencode
  // copies the JSON store into the database and leaves it) is read from the database only.
  void OpenCode(const fs::path& root, const std::vector<fs::path>& files) {
    std::vector<OpenCodeMessage> messages;
    std::map<std::string, OpenCodeSessionRow> sessions;
    std::set<std::string> ids;
    auto add = [&](std::optional<OpenCodeMessage> m, const std::string& where) {
      if (m && !m->refused.empty()) {
        warnings_.push_back(where + ": '" + m->refused +
                            "' must be an integer from 0 to 10^12: the message's usage is "
                            "refused (not counted); the rest of the log is read");
      }
      if (m && ids.insert(m->id).second) messages.push_back(std::move(*m));
    };
    const std::vector<fs::path> dbs = OpenCodeDatabases(root.parent_path());
    total_ += dbs.size();
    for (const auto& db : dbs) {
      Done();
      auto store = ReadOpenCodeDb(db, &warnings_);
      if (!store) {
        Skip(db, FormatError(store.error()));
        continue;
      }
      for (auto& [id, row] : store->sessions) sessions.try_emplace(id, std::move(row));
      for (const auto& row : store->messages) {
        const std::string where = db.string() + ": message " + row.id;
        Error error;
        auto j = ParseJsonDocumentReadingLoneSurrogates(row.data, where, &warnings_, &error);
        if (!j) {
          warnings_.push_back(FormatError(error) + " (message skipped)");
          continue;
        }
        if (!j->is_object()) {
          warnings_.push_back(where + ": error: data is not a JSON object (message skipped)");
          continue;
        }
        add(ReadOpenCodeMessage(*j, row.id, row.session, db.string()), where);
      }
    }
    for (const auto& f : files) {
      Done();
      if (WrittenBefore(f, since_s_)) continue;
      auto bytes = ReadFileBytes(f);
      if (!bytes) {
        Skip(f, ReadErrorText(f, bytes.error()));
        continue;
      }
      Error error;
      std::optional<nlohmann::json> parsed =
          ParseJsonDocumentReadingLoneSurrogates(*bytes, f.string(), &warnings_, &error);
      if (!parsed) {
        Skip(f, FormatError(error));
        continue;
      }
      if (!parsed->is_object()) {
        Skip(f, f.string() + ":1: error: not a JSON object");
        continue;
      }
      auto text = [&](const char* key, const std::string& otherwise) {
        const auto it = parsed->find(key);
        return it != parsed->end() && it->is_string() ? it->get<std::string>() : otherwise;
      };
      const std::string session = text("sessionID", f.parent_path().filename().string());
      add(ReadOpenCodeMessage(*parsed, text("id", f.stem().string()), session,
                              (root / "message" / session).string()),
          f.string());
    }
    for (auto& chain : OpenCodeChains(std::move(messages), sessions)) {
      SessionUsage& s = Session("opencode", chain.session, chain.origin);
      if (s.project.empty()) s.project = chain.project;
      AddChain(s, chain.label, chain.requests, false);
    }
  }

  const UsageOptions& o_;
  const double since_s_;
  size_t files_ = 0, total_ = 0;
  std::map<std::string, SessionUsage> sessions_;       // source/id -> session
  std::map<std::string, std::vector<DayUsage>> days_;  // source/id -> its days
  std::set<std::string> seen_ids_;
  std::map<std::string, ModelPrice> unpriced_;  // model ids not in the price table
  size_t skipped_lines_ = 0;
  std::vector<std::string> warnings_;
  std::vector<SkippedLog> skipped_;
};

}  // namespace

Result<UsageReport> ScanUsage(const UsageOptions& options) {
  STRATA_TRY_ASSIGN(double since_s, SinceSeconds(options.since));
  Scanner scanner(options, since_s);
  scanner.Run();
  return scanner.Finish();
}

}  // namespace strata
