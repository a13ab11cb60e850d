// companions.cc: files a compile merges one entry into but does not own: .aider.conf.yml (the
// `read:` entry Aider needs to load CONVENTIONS.md) and, with the gitignore option, a block in
// .gitignore listing every generated file. Everything else in those files is the user's.
#include <algorithm>
#include <functional>
#include <set>

#include <nlohmann/json.hpp>

#include "compile/aider_config.h"
#include "compile/check_target.h"
#include "compile/housekeeping.h"
#include "io/file_io.h"

namespace strata {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kGitignoreBegin = "# BEGIN strata generated files";
constexpr std::string_view kGitignoreEnd = "# END strata generated files";

using Merge = std::function<std::string(std::string_view existing)>;

// Adds a failing companion report (a refusal, or verify's stale or missing).
void Fail(TargetReport tr, CompileReport* report) {
  report->ok = false;
  report->diagnostics.push_back(
      {Severity::kError, TargetStatusName(tr.status), tr.detail, {tr.path}});
  report->companions.push_back(std::move(tr));
}

Status CheckCompanion(const TargetCheck& check, std::string_view id, std::string_view path,
                      const Merge& merge, CompileReport* report, FileWrites* writes) {
  const CompileOptions& options = check.options;
  TargetReport tr;
  tr.id = std::string(id);
  tr.path = std::string(path);
  std::string existing;
  bool exists = true;
  if (auto bytes = ReadContained(check, path); bytes) {
    existing = std::move(*bytes);
  } else if (bytes.error().kind == ErrorKind::kNotFound) {
    exists = false;
  } else if (bytes.error().kind == ErrorKind::kConflict) {
    tr.status = TargetStatus::kConflict;  // resolves outside the root: never merged into
    tr.detail = "companion " + tr.path + ": " + bytes.error().message;
    Fail(std::move(tr), report);
    return {};
  } else {
    return tl::unexpected(bytes.error());
  }
  std::string merged = merge(existing);
  tr.bytes = merged.size();
  if (exists && merged == existing) {
    tr.status = TargetStatus::kUnchanged;
  } else if (options.write) {
    tr.status = TargetStatus::kWritten;
    writes->emplace_back(std::string(path), std::move(merged));
  } else {
    tr.status = exists ? TargetStatus::kStale : TargetStatus::kMissing;
    tr.detail =
        tr.path + (exists ? " lacks strata's entry" : " is missing") + ": run `strata compile`";
    if (options.diff) tr.diff = UnifiedDiff(existing, merged, path);
    Fail(std::move(tr), report);
    return {};
  }
  report->companions.push_back(std::move(tr));
  return {};
}

// Where each client reads project MCP servers, and the key that holds them.
struct McpConfigFile {
  std::string_view id;
  std::string_view path;
  std::string_view key;
};
constexpr McpConfigFile kMcpConfigs[] = {
    {"claude-code", ".mcp.json", "mcpServers"},
    {"cursor", ".cursor/mcp.json", "mcpServers"},
    {"copilot", ".vscode/mcp.json", "servers"},
    {"gemini-cli", ".gemini/settings.json", "mcpServers"},
};

nlohmann::json ServerJson(const McpServer& server, std::string_view id) {
  nlohmann::json out = nlohmann::json::object();
  if (!server.url.empty()) {
    if (id == "gemini-cli") return {{"httpUrl", server.url}};
    if (id != "cursor") out["type"] = "http";
    out["url"] = server.url;
    return out;
  }
  if (id == "copilot") out["type"] = "stdio";
  out["command"] = server.command;
  if (!server.args.empty()) out["args"] = server.args;
  for (const auto& [name, value] : server.env) out["env"][name] = value;
  return out;
}

// `existing` (a client's JSON settings, "" when absent) with every strata server set under
// `key`; the other servers and settings are kept. Invalid JSON is left as it is (and reported).
std::string MergeMcpServers(std::string_view existing, const McpConfigFile& file,
                            const std::vector<McpServer>& servers) {
  nlohmann::json doc =
      existing.empty() ? nlohmann::json::object() : nlohmann::json::parse(existing, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) return std::string(existing);
  for (const auto& server : servers) {
    doc[std::string(file.key)][server.name] = ServerJson(server, file.id);
  }
  return doc.dump(2) + "\n";
}

bool Produced(const TargetReport& t) {
  return t.status == TargetStatus::kWritten || t.status == TargetStatus::kUnchanged ||
         t.status == TargetStatus::kStale || t.status == TargetStatus::kMissing;
}

}  // namespace

Status FindMcpOrphans(const TargetCheck& check, CompileReport* report, FileWrites* writes) {
  const std::vector<McpServer>& servers = check.config.mcp_servers;
  if (servers.empty()) return {};
  std::set<std::string> compiled;
  for (const auto& t : report->targets) compiled.insert(t.id);
  for (const auto& file : kMcpConfigs) {
    if (compiled.count(std::string(file.id)) != 0) continue;
    auto bytes = ReadContained(check, file.path);
    if (!bytes) {
      if (bytes.error().kind == ErrorKind::kNotFound || bytes.error().kind == ErrorKind::kConflict)
        continue;  // absent, or outside the root: nothing of strata's to judge there
      return tl::unexpected(bytes.error());
    }
    nlohmann::json doc = nlohmann::json::parse(*bytes, nullptr, false);
    const std::string key(file.key);
    if (doc.is_discarded() || !doc.is_object() || !doc.contains(key) || !doc[key].is_object()) {
      continue;
    }
    std::string names;
    for (const auto& server : servers) {
      auto it = doc[key].find(server.name);
      if (it == doc[key].end() || *it != ServerJson(server, file.id)) continue;
      doc[key].erase(server.name);
      names += (names.empty() ? "" : ", ") + server.name;
    }
    if (names.empty()) continue;
    if (doc[key].empty()) doc.erase(key);
    TargetReport tr;
    tr.id = std::string(kMcpOrphanId);
    tr.path = std::string(file.path);
    if (check.options.write) {
      tr.status = TargetStatus::kRemoved;
      tr.detail = "strata's MCP server entries " + names + " under `" + key + "`: target " +
                  std::string(file.id) + " is no longer configured (the other entries are kept)";
      std::string rest = doc.dump(2) + "\n";
      tr.bytes = rest.size();
      writes->emplace_back(tr.path, std::move(rest));
    } else {
      tr.status = TargetStatus::kOrphaned;
      tr.detail = tr.path + " holds strata's MCP server entries " + names + " under `" + key +
                  "` but target " + std::string(file.id) +
                  " is no longer configured: run `strata compile` to remove them";
      report->ok = false;
      report->diagnostics.push_back({Severity::kError, "orphaned", tr.detail, {tr.path}});
    }
    report->orphans.push_back(std::move(tr));
  }
  return {};
}

std::string MergeGitignoreBlock(std::string_view existing, const std::vector<std::string>& paths) {
  std::string block(kGitignoreBegin);
  block += " (strata compile; edit the source instead)\n";
  for (const auto& p : paths) block.append("/").append(p).append("\n");
  block.append(kGitignoreEnd).append("\n");
  size_t begin = existing.find(kGitignoreBegin);
  size_t end = begin == std::string_view::npos ? begin : existing.find(kGitignoreEnd, begin);
  if (end != std::string_view::npos) {
    size_t after = existing.find('\n', end);
    after = after == std::string_view::npos ? existing.size() : after + 1;
    return std::string(existing.substr(0, begin)) + block + std::string(existing.substr(after));
  }
  std::string out(existing);
  if (!out.empty() && out.back() != '\n') out.push_back('\n');
  if (!out.empty()) out.push_back('\n');
  return out + block;
}

Status PlanCompanions(const TargetCheck& check, const CompanionSettings& settings,
                      CompileReport* report, FileWrites* writes) {
  std::vector<std::string> generated;
  std::set<std::string> ids;
  for (const auto& t : report->targets) {
    // A client the source serves still takes strata's MCP servers (and the Aider entry).
    const bool served = t.status == TargetStatus::kServedBySource;
    if (!Produced(t) && !served) continue;
    if (!served) generated.push_back(t.path);
    if (!ids.insert(t.id).second) continue;  // a target's scoped files share its id
    for (const auto& file : kMcpConfigs) {
      if (file.id != t.id || settings.mcp_servers.empty()) continue;
      STRATA_TRY(CheckCompanion(
          check, file.id, file.path,
          [&file, &settings](std::string_view existing) {
            return MergeMcpServers(existing, file, settings.mcp_servers);
          },
          report, writes));
    }
    if (t.id != "aider") continue;
    const std::string file = t.path;
    STRATA_TRY(CheckCompanion(
        check, "aider", kAiderConfigPath,
        [&file](std::string_view existing) { return MergeAiderRead(existing, file); }, report,
        writes));
  }
  if (!settings.gitignore) return {};
  std::sort(generated.begin(), generated.end());
  return CheckCompanion(
      check, "gitignore", ".gitignore",
      [&generated](std::string_view existing) { return MergeGitignoreBlock(existing, generated); },
      report, writes);
}

}  // namespace strata
