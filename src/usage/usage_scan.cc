// usage_scan.cc: finding the user's logs and reading them into sessions (replay.h ScanUsage).
#include <algorithm>
#include <chrono>
#include <cstdlib>
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

// The three log roots: the options' overrides, else the harnesses' own environment variables,
// else their defaults under `home`.
struct Roots {
  fs::path claude, codex, opencode;
};

Roots RootsFor(const UsageOptions& o) {
  Roots r;
  r.claude = o.claude_projects;
  if (r.claude.empty()) {
    std::string dir = Env("CLAUDE_CONFIG_DIR");
    r.claude = dir.empty() ? o.home / ".claude" / "projects" : fs::path(dir) / "projects";
  }
  r.codex = o.codex_sessions;
  if (r.codex.empty()) {
    std::string dir = Env("CODEX_HOME");
    r.codex = dir.empty() ? o.home / ".codex" / "sessions" : fs::path(dir) / "sessions";
  }
  r.opencode = o.opencode_storage;
  if (r.opencode.empty()) {
    std::string dir = Env("XDG_DATA_HOME");
    r.opencode =
        (dir.empty() ? o.home / ".local" / "share" : fs::path(dir)) / "opencode" / "storage";
  }
  return r;
}

// Every regular file under `root` whose name ends in `ext`, sorted (deterministic order).
std::vector<fs::path> FilesUnder(const fs::path& root, std::string_view ext) {
  std::vector<fs::path> out;
  std::error_code ec;
  if (!fs::is_directory(root, ec)) return out;
  for (fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec),
       end;
       it != end; it.increment(ec)) {
    if (ec) break;
    if (it->is_regular_file(ec) && it->path().string().ends_with(ext)) out.push_back(it->path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

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
    std::vector<fs::path> claude = FilesUnder(roots.claude, ".jsonl");
    std::vector<fs::path> codex = FilesUnder(roots.codex, ".jsonl");
    std::vector<fs::path> opencode = FilesUnder(roots.opencode / "message", ".json");
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
                bool automatic) {
    ChainContext ctx{automatic, since_s_, &seen_ids_};
    UsageChain chain =
        AccountChain(label, reqs, ctx, &s.totals, &days_[s.source + "/" + s.id], &s.models);
    if (chain.requests.empty()) return;
    if (s.first_time.empty() || chain.requests.front().time < s.first_time)
      s.first_time = chain.requests.front().time;
    if (chain.requests.back().time > s.last_time) s.last_time = chain.requests.back().time;
    s.chains.push_back(std::move(chain));
  }

  // Claude Code: <project>/<session>.jsonl, its subagents under <project>/<session>/subagents/.
  void ClaudeCode(const std::vector<fs::path>& files) {
    for (const auto& f : files) {
      Done();
      if (WrittenBefore(f, since_s_)) continue;
      const bool subagent = f.parent_path().filename() == "subagents";
      const fs::path session_dir = subagent ? f.parent_path().parent_path() : fs::path();
      const std::string id = subagent ? session_dir.filename().string() : f.stem().string();
      auto bytes = ReadFileBytes(f);
      if (!bytes) {
        Skip(f, f.string() + ": error: " + bytes.error().message);
        continue;
      }
      auto chains = ImportClaudeCodeChains(*bytes, f.string());
      if (!chains) {
        Skip(f, FormatError(chains.error()));
        continue;
      }
      for (auto& w : chains->main.warnings) warnings_.push_back(std::move(w));
      SessionUsage& s =
          Session("claude-code", id, subagent ? fs::path(session_dir.string() + ".jsonl") : f);
      if (s.project.empty()) s.project = CwdOf(chains->main);
      if (s.project.empty()) s.project = CwdOf(chains->sidechain);
      // A subagent's file holds only sidechain lines. Older Claude Code logged its subagents in
      // the session's file, interleaved: counted as one more chain.
      AddChain(s, subagent ? f.stem().string() : "main", RequestsOf(chains->main), false);
      AddChain(s, subagent ? f.stem().string() : "sidechains", RequestsOf(chains->sidechain),
               false);
    }
  }

  void Codex(const fs::path& f) {
    Done();
    if (WrittenBefore(f, since_s_)) return;
    auto bytes = ReadFileBytes(f);
    if (!bytes) {
      Skip(f, f.string() + ": error: " + bytes.error().message);
      return;
    }
    auto t = ImportCodexRollout(*bytes, f.string());
    if (!t) {
      Skip(f, FormatError(t.error()));
      return;
    }
    for (auto& w : t->warnings) warnings_.push_back(std::move(w));
    SessionUsage& s = Session("codex", f.stem().string(), f);
    s.project = CwdOf(*t);
    AddChain(s, "main", RequestsOf(*t), t->provider == "openai" || t->provider == "azure");
  }

  // opencode: its SQLite databases beside `root` (opencode_store.h), then the old JSON store,
  // storage/message/<session>/<message>.json (opencode_chains.h); a message both hold (opencode
  // copies the JSON store into the database and leaves it) is read from the database only.
  void OpenCode(const fs::path& root, const std::vector<fs::path>& files) {
    std::vector<OpenCodeMessage> messages;
    std::map<std::string, OpenCodeSessionRow> sessions;
    std::set<std::string> ids;
    auto add = [&](std::optional<OpenCodeMessage> m) {
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
        add(ReadOpenCodeMessage(*j, row.id, row.session, db.string()));
      }
    }
    for (const auto& f : files) {
      Done();
      if (WrittenBefore(f, since_s_)) continue;
      auto bytes = ReadFileBytes(f);
      if (!bytes) {
        Skip(f, f.string() + ": error: " + bytes.error().message);
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
                              (root / "message" / session).string()));
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
