// opencode_store.cc: opencode's SQLite store, read only (opencode_store.h).
#include "usage/opencode_store.h"

#include <sqlite3.h>

#include <algorithm>
#include <memory>

namespace strata {
namespace {

namespace fs = std::filesystem;

// How long a read waits for a lock opencode holds (a WAL recovery) before giving up.
constexpr int kBusyTimeoutMs = 5000;

struct CloseDb {
  void operator()(sqlite3* db) const { sqlite3_close_v2(db); }
};
struct FinalizeStatement {
  void operator()(sqlite3_stmt* s) const { sqlite3_finalize(s); }
};
using Db = std::unique_ptr<sqlite3, CloseDb>;
using Statement = std::unique_ptr<sqlite3_stmt, FinalizeStatement>;

// A file: URI for `path` (RFC 3986 escapes for the characters a URI path may not hold as they
// are), with `query`.
std::string FileUri(const fs::path& path, const std::string& query) {
  static const char* kHex = "0123456789ABCDEF";
  std::string uri = "file://";
  for (unsigned char c : fs::absolute(path).string()) {
    if (c == '%' || c == '?' || c == '#' || c <= ' ' || c >= 0x7f) {
      uri += '%';
      uri += kHex[c >> 4];
      uri += kHex[c & 15];
    } else {
      uri += char(c);
    }
  }
  return uri + "?" + query;
}

tl::unexpected<Error> DbError(ErrorKind kind, const fs::path& path, const std::string& what) {
  return MakeError(kind, what, Location{path.string(), 0, 0});
}

std::string Column(sqlite3_stmt* s, int i) {
  const unsigned char* text = sqlite3_column_text(s, i);
  if (text == nullptr) return "";
  return std::string(reinterpret_cast<const char*>(text), size_t(sqlite3_column_bytes(s, i)));
}

// The rows of `sql` (each row's columns as text) or the database's error.
Result<std::vector<std::vector<std::string>>> Query(sqlite3* db, const fs::path& path,
                                                    const char* sql) {
  sqlite3_stmt* raw = nullptr;
  std::vector<std::vector<std::string>> rows;
  int rc = sqlite3_prepare_v2(db, sql, -1, &raw, nullptr);
  Statement statement(raw);
  while (rc == SQLITE_OK || rc == SQLITE_ROW) {
    rc = sqlite3_step(raw);
    if (rc != SQLITE_ROW) break;
    auto& row = rows.emplace_back();
    for (int i = 0; i < sqlite3_column_count(raw); ++i) row.push_back(Column(raw, i));
  }
  if (rc != SQLITE_DONE) {
    return DbError(
        ErrorKind::kParse, path,
        std::string("cannot read it as opencode's SQLite database: ") + sqlite3_errmsg(db));
  }
  return rows;
}

// The database at `path` could not be opened: `why`, and what a -wal file without its -shm index
// (opencode stopped part-way) needs.
tl::unexpected<Error> OpenError(const fs::path& path, const std::string& why) {
  std::error_code ec;
  fs::path wal = path, shm = path;
  wal += "-wal";
  shm += "-shm";
  std::string what = "cannot open opencode's database: " + why;
  if (fs::exists(wal, ec) && !fs::exists(shm, ec)) {
    what += " (" + wal.filename().string() + " without " + shm.filename().string() +
            ", which strata will not create: start and quit opencode once to fold the log into "
            "the database)";
  }
  return DbError(ErrorKind::kIo, path, what);
}

}  // namespace

std::vector<fs::path> OpenCodeDatabases(const fs::path& data_dir) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (fs::directory_iterator it(data_dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    const bool db =
        name == "opencode.db" || (name.starts_with("opencode-") && name.ends_with(".db"));
    if (db && !it->is_directory(ec)) out.push_back(it->path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

Result<OpenCodeDb> ReadOpenCodeDb(const fs::path& path, std::vector<std::string>* warnings) {
  std::error_code ec;
  fs::path wal = path;
  wal += "-wal";
  // No -wal: every committed row is in the file itself; immutable opens it without a lock and
  // without making the -wal and -shm files a read-only connection to a WAL database makes. With
  // one: read through it, the -shm index opened read only (SQLite writes its read marks there
  // otherwise).
  const bool has_wal = fs::exists(wal, ec);
  fs::path shm = path;
  shm += "-shm";
  if (has_wal && !fs::exists(shm, ec)) return OpenError(path, "its -shm index is missing");
  const std::string query = has_wal ? "mode=ro&readonly_shm=1" : "mode=ro&immutable=1";
  sqlite3* raw = nullptr;
  int rc = sqlite3_open_v2(FileUri(path, query).c_str(), &raw,
                           SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr);
  Db db(raw);
  if (rc != SQLITE_OK)
    return OpenError(path, raw != nullptr ? sqlite3_errmsg(raw) : sqlite3_errstr(rc));
  sqlite3_busy_timeout(raw, kBusyTimeoutMs);
  STRATA_TRY_ASSIGN(auto tables,
                    Query(raw, path,
                          "SELECT name FROM sqlite_master WHERE type = 'table' AND name IN "
                          "('message', 'session') ORDER BY name"));
  auto has = [&](const char* name) {
    return std::any_of(tables.begin(), tables.end(), [&](const auto& r) { return r[0] == name; });
  };
  if (!has("message")) {
    return DbError(ErrorKind::kParse, path,
                   "no table 'message': not opencode's database (opencode 1.2 or later keeps its "
                   "messages there)");
  }
  OpenCodeDb out;
  STRATA_TRY_ASSIGN(auto messages, Query(raw, path,
                                         "SELECT id, session_id, data FROM message "
                                         "ORDER BY session_id, id"));
  for (auto& r : messages) out.messages.push_back({r[0], r[1], std::move(r[2])});
  auto sessions = has("session") ? Query(raw, path, "SELECT id, parent_id, directory FROM session")
                                 : DbError(ErrorKind::kParse, path, "no table 'session'");
  if (!sessions) {
    warnings->push_back(path.string() + ": warning: " + sessions.error().message +
                        " (subagent sessions counted as sessions of their own)");
    return out;
  }
  for (auto& r : *sessions) out.sessions[r[0]] = {r[1], r[2]};
  return out;
}

}  // namespace strata
