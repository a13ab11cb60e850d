// opencode_store.h (private): opencode's SQLite store, read for `strata usage` (replay.h), read
// only.
//
// Where it is and what it holds (opencode 1.2 and later; opencode's own source,
// packages/opencode/src/storage/db.ts and src/session/session.sql.ts):
//   <data>/opencode.db, and <data>/opencode-<channel>.db for the channels other than latest and
//   beta, where <data> is $XDG_DATA_HOME/opencode (default ~/.local/share/opencode), beside the
//   old JSON store <data>/storage/;
//   table message(id TEXT PRIMARY KEY, session_id TEXT, time_created INTEGER ms, time_updated,
//   data TEXT): `data` is the message info without `id` and `sessionID`, the same members as a
//   file of the old JSON store (role, time, modelID, tokens, summary, path, ...);
//   table session(id, parent_id, directory, ...): parent_id is set for a subagent's (task tool's)
//   session.
//
// Invariants: no byte of the database, its -wal or its -shm is written and no file is created
// beside it. opencode keeps the database in WAL mode (<db>-wal and <db>-shm beside it while it
// runs; 1.18 leaves them when it exits). Without a <db>-wal every committed row is in <db>
// itself, and it is opened immutable (no lock, and no -wal or -shm made, as a read-only SQLite
// connection otherwise makes); with one it is opened read only through the -wal and the -shm
// index, the index opened read only too (readonly_shm), with a busy timeout. Rows come in
// (session_id, id) order.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "strata/status.h"

namespace strata {

struct OpenCodeRow {
  std::string id, session;  // the message id and its session's id
  std::string data;         // the message info, JSON text as stored (not checked here)
};

struct OpenCodeSessionRow {
  std::string parent;     // "" for a top-level session
  std::string directory;  // the project directory, "" when not stored
};

struct OpenCodeDb {
  std::vector<OpenCodeRow> messages;
  std::map<std::string, OpenCodeSessionRow> sessions;  // session id -> its row
};

// opencode's databases in `data_dir` (opencode.db, opencode-<channel>.db), sorted by path; none
// when the directory does not exist.
std::vector<std::filesystem::path> OpenCodeDatabases(const std::filesystem::path& data_dir);

// Every message row of the database at `db` and its session rows. Errors, naming the path: kIo
// when it cannot be opened (a -wal without its -shm: said, with what to do), kParse when it is not
// a SQLite database or has no `message` table. A database without a
// usable `session` table still gives its messages, with a warning in `warnings` (no session is
// folded into its parent then).
Result<OpenCodeDb> ReadOpenCodeDb(const std::filesystem::path& db,
                                  std::vector<std::string>* warnings);

}  // namespace strata
