// opencode_chains.h (private): opencode's messages as `strata usage` counts them, from either of
// its stores (the JSON files of storage/message/ or the SQLite database, opencode_store.h): one
// reading of a message's info and one grouping into cache chains, whatever store it came from.
//
// A message info (opencode's MessageV2.Info, packages/opencode/src/session/message-v2.ts): an
// assistant message is one request, with tokens {input, output, reasoning, cache {read, write}}
// (input excludes the cache figures) and time {created, completed} in milliseconds; a
// `summary: true` assistant message writes a compaction's summary, so the request after it starts
// a new prefix; path.cwd is the project directory.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "usage/opencode_store.h"
#include "usage/usage_chain.h"

namespace strata {

// One assistant message.
struct OpenCodeMessage {
  std::string id, session;
  std::string origin;  // where it was read: the database, or the session's message directory
  std::string cwd;     // path.cwd, "" when not stated
  int64_t created = 0;
  bool summary = false;
  std::optional<LogRequest> request;  // none when it recorded no token (nothing was sent yet)
  // The token count that is not an integer from 0 to 10^12 ("tokens.input", ...): the message's
  // usage is refused (no request), as the Claude Code and Codex readers refuse a line's; "" none.
  std::string refused;
};

// The assistant message of `info` (a message info object), id `id` in session `session`;
// nullopt for any other role or a value that is not an object.
std::optional<OpenCodeMessage> ReadOpenCodeMessage(const nlohmann::json& info,
                                                   const std::string& id,
                                                   const std::string& session,
                                                   const std::string& origin);

// One cache chain of a top-level session.
struct OpenCodeChain {
  std::string session;  // the top-level session's id
  std::string label;    // "main", or the subagent session's id
  std::string origin;   // where the session's first message was read
  std::string project;  // the last path.cwd of the chain's messages, else the session's directory
  std::vector<LogRequest> requests;  // in created order, compactions marked
};

// The chains of `messages` (each message once): per session in order of creation; a request
// after a summary message, or after one created between it and its predecessor, is marked
// after_compaction. A session with a parent (a subagent's, `sessions`) is one more chain of its
// top-level ancestor's session, labelled with its own id. Chains are ordered by top-level session
// id, its main chain first, then the subagents' by id.
std::vector<OpenCodeChain> OpenCodeChains(
    std::vector<OpenCodeMessage> messages,
    const std::map<std::string, OpenCodeSessionRow>& sessions);

}  // namespace strata
