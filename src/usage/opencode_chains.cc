// opencode_chains.cc: opencode's messages into cache chains (opencode_chains.h).
#include "usage/opencode_chains.h"

#include <algorithm>
#include <set>

#include "base/time.h"
#include "transcripts/json_lines.h"

namespace strata {
namespace {

// The count at `key` of object `o`: 0 when absent or null; nullopt when it is not an integer
// from 0 to kMaxTokenCount (a string, a negative, a fraction, 1e30), as the Claude Code and Codex
// readers refuse it.
std::optional<size_t> Count(const nlohmann::json& o, const char* key) {
  if (!o.is_object() || !o.contains(key) || o[key].is_null()) return 0;
  const nlohmann::json& v = o[key];
  if (v.is_number_unsigned()) {
    const uint64_t n = v.get<uint64_t>();
    if (n <= uint64_t(kMaxTokenCount)) return size_t(n);
  } else if (v.is_number_integer()) {
    const int64_t n = v.get<int64_t>();
    if (n >= 0 && n <= kMaxTokenCount) return size_t(n);
  }
  return std::nullopt;
}

const nlohmann::json& Member(const nlohmann::json& o, const char* key) {
  static const nlohmann::json kNull;
  return o.is_object() && o.contains(key) ? o[key] : kNull;
}

int64_t Millis(const nlohmann::json& time, const char* key) {
  const auto& v = Member(time, key);
  return v.is_number() ? v.get<int64_t>() : 0;
}

// The top-level ancestor of `session` (itself when it has no parent; a cycle stops the walk).
std::string RootOf(const std::string& session,
                   const std::map<std::string, OpenCodeSessionRow>& sessions) {
  std::string at = session;
  std::set<std::string> seen{at};
  for (;;) {
    auto it = sessions.find(at);
    if (it == sessions.end() || it->second.parent.empty()) return at;
    if (!seen.insert(it->second.parent).second) return at;
    at = it->second.parent;
  }
}

// One session's messages (in created order) as a chain's requests, compactions marked.
std::vector<LogRequest> ChainRequests(std::vector<OpenCodeMessage>& list) {
  std::set<int64_t> marks;  // created ms of the summaries
  for (const auto& m : list) {
    if (m.summary) marks.insert(m.created);
  }
  std::vector<LogRequest> out;
  const OpenCodeMessage* previous = nullptr;
  for (auto& m : list) {
    if (!m.request) continue;
    LogRequest& r = *m.request;
    // The previous request wrote a summary, or a summary lies between it and this one.
    if (previous != nullptr) {
      auto it = marks.upper_bound(previous->created);
      r.after_compaction = previous->summary || (it != marks.end() && *it < m.created);
    }
    previous = &m;
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace

std::optional<OpenCodeMessage> ReadOpenCodeMessage(const nlohmann::json& j, const std::string& id,
                                                   const std::string& session,
                                                   const std::string& origin) {
  if (!j.is_object() || j.value("role", "") != "assistant") return std::nullopt;
  OpenCodeMessage m;
  m.id = id;
  m.session = session;
  m.origin = origin;
  const auto& time = Member(j, "time");
  m.created = Millis(time, "created");
  const int64_t completed = Millis(time, "completed");
  m.summary = Member(j, "summary").is_boolean() && j["summary"].get<bool>();
  const auto& path = Member(j, "path");
  if (Member(path, "cwd").is_string()) m.cwd = path["cwd"].get<std::string>();
  const auto& tokens = Member(j, "tokens");
  const auto& cache = Member(tokens, "cache");
  std::optional<size_t> counts[5];
  const std::pair<const nlohmann::json*, const char*> members[5] = {{&cache, "read"},
                                                                    {&cache, "write"},
                                                                    {&tokens, "input"},
                                                                    {&tokens, "output"},
                                                                    {&tokens, "reasoning"}};
  for (size_t i = 0; i < 5; ++i) {
    counts[i] = Count(*members[i].first, members[i].second);
    if (!counts[i]) {
      m.refused =
          std::string(members[i].first == &cache ? "tokens.cache." : "tokens.") + members[i].second;
      return m;
    }
  }
  LogRequest r;
  r.usage.cache_read_tokens = *counts[0];
  r.usage.cache_write_tokens = *counts[1];
  r.usage.input_tokens = *counts[2] + r.usage.cache_read_tokens + r.usage.cache_write_tokens;
  r.output_tokens = *counts[3] + *counts[4];
  if (r.usage.input_tokens == 0 && r.output_tokens == 0) return m;
  r.time_s = double(m.created) / 1000.0;
  r.sent_s = r.time_s;
  r.done_s = completed > 0 ? double(completed) / 1000.0 : r.time_s;
  r.time = m.created > 0 ? FormatRfc3339Millis(m.created) : "";
  r.model = Member(j, "modelID").is_string() ? j["modelID"].get<std::string>() : "";
  r.request_id = "opencode/" + id;
  m.request = std::move(r);
  return m;
}

std::vector<OpenCodeChain> OpenCodeChains(
    std::vector<OpenCodeMessage> messages,
    const std::map<std::string, OpenCodeSessionRow>& sessions) {
  // root session -> session -> its messages; "" sorts the root's own session first.
  std::map<std::string, std::map<std::string, std::vector<OpenCodeMessage>>> by_root;
  for (auto& m : messages) {
    std::string root = RootOf(m.session, sessions);
    std::string key = root == m.session ? "" : m.session;
    by_root[root][key].push_back(std::move(m));
  }
  std::vector<OpenCodeChain> out;
  for (auto& [root, by_session] : by_root) {
    for (auto& [session, list] : by_session) {
      std::stable_sort(
          list.begin(), list.end(),
          [](const OpenCodeMessage& a, const OpenCodeMessage& b) { return a.created < b.created; });
      OpenCodeChain c;
      c.session = root;
      c.label = session.empty() ? "main" : session;
      c.origin = list.front().origin;
      for (const auto& m : list) {
        if (!m.cwd.empty()) c.project = m.cwd;
      }
      auto row = sessions.find(session.empty() ? root : session);
      if (c.project.empty() && row != sessions.end()) c.project = row->second.directory;
      c.requests = ChainRequests(list);
      out.push_back(std::move(c));
    }
  }
  return out;
}

}  // namespace strata
