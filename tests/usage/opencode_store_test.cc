// `strata usage` on opencode's SQLite store (src/usage/opencode_store.h): databases written here
// with the sqlite3 C API in opencode's schema (packages/opencode/src/session/session.sql.ts, the
// columns strata reads), in WAL mode as opencode keeps them. Every figure below is worked out by
// hand from the rows written here: a session of three requests, a compaction, a subagent's session
// folded into its parent, a message both stores hold, a corrupt row, a file that is not a
// database, a database opencode holds open, and the database left as it was.
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "strata/replay.h"
#include "support/test_support.h"

namespace strata {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

constexpr int64_t kT0 = 1795946400000;  // 2026-11-29T10:00:00Z, in ms
const char* kData = ".local/share/opencode/";

void Exec(sqlite3* db, const std::string& sql) {
  char* error = nullptr;
  ASSERT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error), SQLITE_OK) << error;
}

// A database at `path` with opencode's message and session tables (WAL mode), left open.
sqlite3* CreateDb(const fs::path& path) {
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  Exec(db, "PRAGMA journal_mode = WAL");
  Exec(db,
       "CREATE TABLE session (id TEXT PRIMARY KEY, project_id TEXT NOT NULL, parent_id TEXT, "
       "directory TEXT NOT NULL, title TEXT NOT NULL, time_created INTEGER NOT NULL, "
       "time_updated INTEGER NOT NULL)");
  Exec(db,
       "CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, time_created "
       "INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL)");
  return db;
}

void AddSession(sqlite3* db, const std::string& id, const std::string& parent,
                const std::string& directory) {
  Exec(db, "INSERT INTO session VALUES ('" + id + "', 'prj', " +
               (parent.empty() ? "NULL" : "'" + parent + "'") + ", '" + directory + "', 't', " +
               std::to_string(kT0) + ", " + std::to_string(kT0) + ")");
}

void AddRow(sqlite3* db, const std::string& id, const std::string& session, int64_t created,
            const std::string& data) {
  sqlite3_stmt* s = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db, "INSERT INTO message VALUES (?, ?, ?, ?, ?)", -1, &s, nullptr),
            SQLITE_OK);
  sqlite3_bind_text(s, 1, id.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(s, 2, session.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_int64(s, 3, created);
  sqlite3_bind_int64(s, 4, created);
  sqlite3_bind_text(s, 5, data.c_str(), -1, SQLITE_TRANSIENT);
  EXPECT_EQ(sqlite3_step(s), SQLITE_DONE);
  sqlite3_finalize(s);
}

// The info of an assistant message (no id, no sessionID: the database's `data`), created at
// kT0 + `at` ms and completed 4 s later.
std::string Assistant(int64_t at, int input, int output, int reasoning, int read, int write,
                      const std::string& extra = "") {
  return R"({"role":"assistant","modelID":"claude-sonnet-4-5","providerID":"anthropic",)"
         R"("path":{"cwd":"/home/dev/delta","root":"/home/dev/delta"},"time":{"created":)" +
         std::to_string(kT0 + at) + R"(,"completed":)" + std::to_string(kT0 + at + 4000) +
         R"(},"tokens":{"input":)" + std::to_string(input) + R"(,"output":)" +
         std::to_string(output) + R"(,"reasoning":)" + std::to_string(reasoning) +
         R"(,"cache":{"read":)" + std::to_string(read) + R"(,"write":)" + std::to_string(write) +
         "}}" + extra + "}";
}

void AddMessage(sqlite3* db, const std::string& id, const std::string& session, int64_t at,
                const std::string& data) {
  AddRow(db, id, session, kT0 + at, data);
}

// ses_a: a user message and three requests, a corrupt row; ses_c: a subagent of ses_a, one
// request; ses_b: a request, a compaction's summary, a request after it.
void WriteDb(const fs::path& path) {
  sqlite3* db = CreateDb(path);
  AddSession(db, "ses_a", "", "/home/dev/delta");
  AddSession(db, "ses_b", "", "/home/dev/epsilon");
  AddSession(db, "ses_c", "ses_a", "/home/dev/delta");
  AddMessage(db, "msg_a0", "ses_a", 0, R"({"role":"user","time":{"created":1795946400000}})");
  AddMessage(db, "msg_a1", "ses_a", 1000, Assistant(1000, 100, 20, 0, 0, 5000));
  AddMessage(db, "msg_a2", "ses_a", 10000, Assistant(10000, 50, 30, 10, 5000, 200));
  AddMessage(db, "msg_a3", "ses_a", 20000, Assistant(20000, 20, 10, 0, 5200, 100));
  AddMessage(db, "msg_a4", "ses_a", 30000, "{\"role\":\"assistant\",\"tokens\":{not json");
  AddMessage(db, "msg_c1", "ses_c", 12000, Assistant(12000, 10, 5, 0, 0, 3000));
  // ses_b's messages say no path: its project comes from the session row.
  AddMessage(
      db, "msg_b1", "ses_b", 100000,
      R"({"role":"assistant","modelID":"claude-sonnet-4-5","time":{"created":1795946500000},)"
      R"("tokens":{"input":100,"output":10,"reasoning":0,"cache":{"read":0,"write":8000}}})");
  AddMessage(
      db, "msg_b2", "ses_b", 160000,
      R"({"role":"assistant","modelID":"claude-sonnet-4-5","summary":true,)"
      R"("time":{"created":1795946560000},)"
      R"("tokens":{"input":100,"output":500,"reasoning":0,"cache":{"read":8000,"write":0}}})");
  AddMessage(
      db, "msg_b3", "ses_b", 220000,
      R"({"role":"assistant","modelID":"claude-sonnet-4-5","time":{"created":1795946620000},)"
      R"("tokens":{"input":2000,"output":10,"reasoning":0,"cache":{"read":0,"write":500}}})");
  sqlite3_close(db);
}

UsageReport Scan(const TempDir& home) {
  fs::create_directories(home.path() / "none");  // no Claude Code or Codex logs, and no warning
  UsageOptions o;
  o.home = home.path();
  o.claude_projects = home.path() / "none";
  o.codex_sessions = home.path() / "none";
  auto r = ScanUsage(o);
  EXPECT_TRUE(r) << (r ? "" : r.error().message);
  return r ? *r : UsageReport{};
}

const SessionUsage* Find(const UsageReport& r, const std::string& id) {
  for (const auto& s : r.sessions) {
    if (s.source == "opencode" && s.id == id) return &s;
  }
  return nullptr;
}

const UsageChain* Chain(const SessionUsage& s, const std::string& label) {
  for (const auto& c : s.chains) {
    if (c.label == label) return &c;
  }
  return nullptr;
}

std::set<std::string> FilesIn(const fs::path& dir) {
  std::set<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.insert(e.path().filename().string());
  return out;
}

// Each file of `dir` (name -> bytes).
std::map<std::string, std::string> Contents(const fs::path& dir) {
  std::map<std::string, std::string> out;
  for (const auto& name : FilesIn(dir)) out[name] = testing::ReadAll(dir / name);
  return out;
}

bool Has(const std::vector<std::string>& lines, const std::string& a, const std::string& b) {
  for (const auto& l : lines) {
    if (l.find(a) != std::string::npos && l.find(b) != std::string::npos) return true;
  }
  return false;
}

TEST(UsageOpenCodeDbTest, SessionsFromTheDatabaseWithTheirFigures) {
  TempDir home;
  fs::create_directories(home.path() / kData);
  WriteDb(home.path() / kData / "opencode.db");
  UsageReport r = Scan(home);
  EXPECT_EQ(r.files, 1u);
  ASSERT_EQ(r.sessions.size(), 2u);  // ses_c is folded into ses_a
  EXPECT_EQ(Find(r, "ses_c"), nullptr);
  const SessionUsage* a = Find(r, "ses_a");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->project, "/home/dev/delta");
  EXPECT_EQ(a->path, (home.path() / kData / "opencode.db").string());
  ASSERT_EQ(a->chains.size(), 2u);
  const UsageChain* main = Chain(*a, "main");
  ASSERT_NE(main, nullptr);
  ASSERT_EQ(main->requests.size(), 3u);  // msg_a4 (corrupt) not among them
  // input = uncached + cache read + cache write; output = output + reasoning.
  EXPECT_EQ(main->requests[0].usage.input_tokens, 100u + 0u + 5000u);
  EXPECT_EQ(main->requests[1].usage.input_tokens, 50u + 5000u + 200u);
  EXPECT_EQ(main->requests[1].output_tokens, 40u);
  EXPECT_EQ(main->requests[2].usage.input_tokens, 20u + 5200u + 100u);
  EXPECT_EQ(main->requests[0].time, "2026-11-29T10:00:01.000Z");
  for (const auto& q : main->requests) EXPECT_FALSE(q.drop);
  const UsageChain* sub = Chain(*a, "ses_c");
  ASSERT_NE(sub, nullptr);
  ASSERT_EQ(sub->requests.size(), 1u);
  EXPECT_EQ(sub->requests[0].usage.input_tokens, 3010u);
  EXPECT_EQ(a->totals.requests, 4u);
  EXPECT_EQ(a->totals.input_tokens, 5100u + 5250u + 5320u + 3010u);
  EXPECT_EQ(a->totals.cache_read_tokens, 10200u);
  EXPECT_EQ(a->totals.cache_write_tokens, 5300u + 3000u);
  EXPECT_EQ(a->totals.output_tokens, 20u + 40u + 10u + 5u);
  // Sonnet: $3 in, $15 out, read $0.30, 5 min write $3.75 per million.
  EXPECT_NEAR(a->totals.cost, (180 * 3 + 10200 * 0.3 + 8300 * 3.75 + 75 * 15) / 1e6, 1e-9);

  const SessionUsage* b = Find(r, "ses_b");
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->project, "/home/dev/epsilon");
  ASSERT_EQ(b->chains.size(), 1u);
  ASSERT_EQ(b->chains[0].requests.size(), 3u);  // the summary's request counts
  EXPECT_FALSE(b->chains[0].requests[1].drop);
  ASSERT_TRUE(b->chains[0].requests[2].drop);
  EXPECT_EQ(b->chains[0].requests[2].drop->cause, DropCause::kCompaction);
  // msg_b2 left 8000 + 0 cached; msg_b3 read none of it.
  EXPECT_EQ(b->totals.drops[size_t(DropCause::kCompaction)].lost_tokens, 8000u);
  EXPECT_EQ(r.totals.requests, 7u);

  // The corrupt row: one warning naming the database and the message; nothing skipped.
  EXPECT_TRUE(r.skipped.empty());
  ASSERT_EQ(r.warnings.size(), 1u) << ::testing::PrintToString(r.warnings);
  EXPECT_TRUE(Has(r.warnings, "opencode.db", "msg_a4")) << r.warnings[0];
}

// opencode copies the JSON store into the database on its first start and leaves the files: a
// message both hold counts once; a message only the JSON store holds still counts.
TEST(UsageOpenCodeDbTest, AMessageInBothStoresCountsOnce) {
  TempDir home;
  fs::create_directories(home.path() / kData);
  WriteDb(home.path() / kData / "opencode.db");
  const std::string dir = std::string(kData) + "storage/message/";
  std::string a1 = Assistant(1000, 100, 20, 0, 0, 5000);
  a1.insert(1, R"("id":"msg_a1","sessionID":"ses_a",)");
  home.Write(dir + "ses_a/msg_a1.json", a1);
  std::string old = Assistant(-86400000, 300, 30, 0, 0, 1000);
  old.insert(1, R"("id":"msg_o1","sessionID":"ses_old",)");
  home.Write(dir + "ses_old/msg_o1.json", old);
  UsageReport r = Scan(home);
  EXPECT_EQ(r.files, 3u);  // the database and two message files
  EXPECT_EQ(r.totals.requests, 7u + 1u);
  const SessionUsage* a = Find(r, "ses_a");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->totals.requests, 4u);
  EXPECT_EQ(a->totals.input_tokens, 5100u + 5250u + 5320u + 3010u);
  const SessionUsage* o = Find(r, "ses_old");
  ASSERT_NE(o, nullptr);
  EXPECT_EQ(o->totals.input_tokens, 1300u);
  EXPECT_EQ(o->path, (home.path() / dir / "ses_old").string());
}

// A channel's database that is not a SQLite database, and one without a message table: each is
// named in the skipped list and a warning; opencode.db still counts.
TEST(UsageOpenCodeDbTest, AFileThatIsNotOpencodesDatabaseIsSkippedByName) {
  TempDir home;
  fs::create_directories(home.path() / kData);
  WriteDb(home.path() / kData / "opencode.db");
  home.Write(std::string(kData) + "opencode-dev.db", "hello, not a database\n");
  sqlite3* other = nullptr;
  ASSERT_EQ(sqlite3_open((home.path() / kData / "opencode-local.db").c_str(), &other), SQLITE_OK);
  Exec(other, "CREATE TABLE note (x TEXT)");
  sqlite3_close(other);
  UsageReport r = Scan(home);
  EXPECT_EQ(r.files, 3u);
  EXPECT_EQ(r.totals.requests, 7u);
  ASSERT_EQ(r.skipped.size(), 2u);
  EXPECT_TRUE(r.skipped[0].path.ends_with("opencode-dev.db")) << r.skipped[0].path;
  EXPECT_NE(r.skipped[0].error.find("opencode-dev.db: error:"), std::string::npos)
      << r.skipped[0].error;
  EXPECT_NE(r.skipped[0].error.find("not a database"), std::string::npos) << r.skipped[0].error;
  EXPECT_TRUE(r.skipped[1].path.ends_with("opencode-local.db")) << r.skipped[1].path;
  EXPECT_NE(r.skipped[1].error.find("no table 'message'"), std::string::npos) << r.skipped[1].error;
  EXPECT_TRUE(Has(r.warnings, "opencode-dev.db", "file skipped"));
  EXPECT_TRUE(Has(r.warnings, "opencode-local.db", "file skipped"));
}

// The scan writes nothing: the database keeps its bytes and no -wal, -shm or -journal file
// appears beside it.
TEST(UsageOpenCodeDbTest, TheDatabaseIsLeftAsItWas) {
  TempDir home;
  const fs::path data = home.path() / kData;
  fs::create_directories(data);
  WriteDb(data / "opencode.db");
  const std::set<std::string> before = FilesIn(data);
  ASSERT_EQ(before, (std::set<std::string>{"opencode.db"}));
  const std::string bytes = testing::ReadAll(data / "opencode.db");
  UsageReport r = Scan(home);
  EXPECT_EQ(r.totals.requests, 7u);
  EXPECT_EQ(FilesIn(data), before);
  EXPECT_EQ(testing::ReadAll(data / "opencode.db"), bytes);
}

// opencode's part, in a process of its own (SQLite shares one -shm mapping among the connections
// of a process, so a writer in this one would not show what another process sees): it opens the
// database, turns automatic checkpoints off, adds msg_a5 to ses_a (so it is in the -wal only) and
// waits; Stop() ends it without closing the database, as opencode 1.18 exits.
class RunningOpencode {
 public:
  explicit RunningOpencode(const fs::path& db) {
    const std::string path = db.string();
    const std::string sql =
        "PRAGMA wal_autocheckpoint = 0; INSERT INTO message VALUES ('msg_a5', "
        "'ses_a', 0, 0, '" +
        Assistant(40000, 30, 10, 0, 5320, 0) + "')";
    if (pipe(ready_) != 0 || pipe(done_) != 0) return;
    pid_ = fork();
    if (pid_ == 0) {
      sqlite3* h = nullptr;
      char c = sqlite3_open(path.c_str(), &h) == SQLITE_OK &&
                       sqlite3_exec(h, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK
                   ? '1'
                   : '0';
      if (write(ready_[1], &c, 1) == 1) (void)!read(done_[0], &c, 1);
      _exit(0);
    }
    char c = '0';
    started_ = pid_ > 0 && read(ready_[0], &c, 1) == 1 && c == '1';
  }
  ~RunningOpencode() {
    Stop();
    for (int fd : {ready_[0], ready_[1], done_[0], done_[1]}) {
      if (fd >= 0) close(fd);
    }
  }
  RunningOpencode(const RunningOpencode&) = delete;
  RunningOpencode& operator=(const RunningOpencode&) = delete;
  bool started() const { return started_; }
  void Stop() {
    if (pid_ <= 0) return;
    char c = 'x';
    (void)!write(done_[1], &c, 1);
    waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }

 private:
  int ready_[2] = {-1, -1}, done_[2] = {-1, -1};
  pid_t pid_ = -1;
  bool started_ = false;
};

// WriteDb's database in `home`, then msg_a5 added by an opencode that exits without closing it
// (the -wal and -shm left beside it); returns its directory.
fs::path LeftByOpencode(const TempDir& home) {
  const fs::path data = home.path() / kData;
  fs::create_directories(data);
  WriteDb(data / "opencode.db");
  RunningOpencode opencode(data / "opencode.db");
  EXPECT_TRUE(opencode.started());
  opencode.Stop();
  return data;
}

// opencode running (another process holds the database in WAL mode, msg_a5 in the -wal only):
// the message counts, and the scan adds no file and changes no byte of the database, its -wal or
// its -shm index (no read mark written there).
TEST(UsageOpenCodeDbTest, ADatabaseOpencodeHoldsOpenIsReadWithItsLog) {
  TempDir home;
  const fs::path data = home.path() / kData;
  fs::create_directories(data);
  WriteDb(data / "opencode.db");
  RunningOpencode opencode(data / "opencode.db");
  ASSERT_TRUE(opencode.started());
  ASSERT_TRUE(fs::exists(data / "opencode.db-wal"));
  const std::map<std::string, std::string> before = Contents(data);
  UsageReport r = Scan(home);
  EXPECT_EQ(r.totals.requests, 8u);
  const SessionUsage* a = Find(r, "ses_a");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->totals.cache_read_tokens, 10200u + 5320u);
  for (const auto& [name, bytes] : Contents(data)) {
    EXPECT_TRUE(before.count(name) && before.at(name) == bytes) << name;
  }
  EXPECT_EQ(Contents(data).size(), before.size());
}

// opencode 1.18 exits without closing its database: the -wal and -shm files stay, with rows the
// database file does not hold yet. They are read, and the scan changes none of the three files.
TEST(UsageOpenCodeDbTest, ADatabaseLeftWithItsLogIsReadWithoutChangingIt) {
  TempDir home;
  const fs::path data = LeftByOpencode(home);
  const std::map<std::string, std::string> before = Contents(data);
  ASSERT_EQ(before.size(), 3u);  // opencode.db, -shm, -wal
  UsageReport r = Scan(home);
  EXPECT_TRUE(r.skipped.empty()) << ::testing::PrintToString(r.warnings);
  EXPECT_EQ(r.totals.requests, 8u);
  EXPECT_TRUE(Contents(data) == before);
}

// A -wal without its -shm index (opencode stopped part-way): reading it would need the index made
// beside it, so the database is skipped, named, with what to do; no file is made.
TEST(UsageOpenCodeDbTest, ALogWithoutItsIndexIsSkippedWithWhatToDo) {
  TempDir home;
  const fs::path data = LeftByOpencode(home);
  fs::remove(data / "opencode.db-shm");
  const std::map<std::string, std::string> before = Contents(data);
  UsageReport r = Scan(home);
  EXPECT_EQ(r.totals.requests, 0u);
  ASSERT_EQ(r.skipped.size(), 1u);
  EXPECT_NE(r.skipped[0].error.find("opencode.db: error: cannot open"), std::string::npos)
      << r.skipped[0].error;
  EXPECT_NE(r.skipped[0].error.find("opencode.db-wal without opencode.db-shm"), std::string::npos)
      << r.skipped[0].error;
  EXPECT_TRUE(Contents(data) == before);
}

}  // namespace
}  // namespace strata

namespace strata {
namespace {

// A --home holding only opencode's database (a fresh opencode 1.18 makes no storage/ folder) has
// logs: no "no agent logs found" warning.
TEST(UsageOpenCodeDbTest, AHomeWithOnlyTheDatabaseHasLogs) {
  TempDir home;
  fs::create_directories(home.path() / kData);
  WriteDb(home.path() / kData / "opencode.db");
  UsageOptions o;
  o.home = home.path();
  o.home_explicit = true;
  auto r = ScanUsage(o);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->sessions.size(), 2u);
  for (const auto& w : r->warnings) {
    EXPECT_EQ(w.find("no agent logs found"), std::string::npos) << w;
  }
}

}  // namespace
}  // namespace strata

namespace strata {
namespace {

// A token count that is not an integer from 0 to 10^12 refuses that message's usage, with a
// warning naming its file (or database and message) and the member, as the Claude Code and Codex
// readers refuse a line's; the session's other messages count.
TEST(UsageOpenCodeDbTest, ABadTokenCountRefusesThatMessagesUsage) {
  TempDir home;
  const std::string dir = std::string(kData) + "storage/message/ses_j/";
  std::string good = Assistant(1000, 100, 20, 0, 0, 5000);
  good.insert(1, R"("id":"msg_j1","sessionID":"ses_j",)");
  home.Write(dir + "msg_j1.json", good);
  const std::pair<const char*, const char*> bad[] = {{"msg_j2", R"("input":-5)"},
                                                     {"msg_j3", R"("input":"10")"},
                                                     {"msg_j4", R"("input":1e30)"},
                                                     {"msg_j5", R"("input":2.5)"}};
  for (const auto& [id, input] : bad) {
    std::string m = Assistant(2000, 7, 20, 0, 0, 0);
    m.replace(m.find(R"("input":7)"), 9, input);
    m.insert(1, std::string(R"("id":")") + id + R"(","sessionID":"ses_j",)");
    home.Write(dir + id + ".json", m);
  }
  UsageReport r = Scan(home);
  const SessionUsage* j = Find(r, "ses_j");
  ASSERT_NE(j, nullptr);
  EXPECT_EQ(j->totals.requests, 1u);
  EXPECT_EQ(j->totals.input_tokens, 5100u);
  for (const auto& [id, input] : bad) {
    const std::string file = (home.path() / dir / (std::string(id) + ".json")).string();
    EXPECT_TRUE(Has(r.warnings, file, "'tokens.input' must be an integer from 0 to 10^12"))
        << id << ": " << ::testing::PrintToString(r.warnings);
  }
}

}  // namespace
}  // namespace strata
