// cmd_mcp.cc: `strata mcp`: an MCP server over stdio (strata/mcp.h) exposing audit, compile
// (verify only: it never writes) and discover as tools. explain needs llama.cpp, which the core
// `strata` binary never loads, so it is not among these tools (docs/mcp.md).
#include <iostream>

#include "commands.h"
#include "compile_json.h"
#include "output.h"
#include "strata/compile.h"
#include "strata/discover.h"
#include "strata/mcp.h"

namespace strata::cli {

namespace {

using nlohmann::json;

json CompileSchema(bool with_diff) {
  json properties = {{"root",
                      {{"type", "string"},
                       {"description",
                        "Repository root (default: the server's "
                        "working directory)"}}},
                     {"targets",
                      {{"type", "array"},
                       {"items", {{"type", "string"}}},
                       {"description", "Target ids to check (default: strata.toml's targets)"}}}};
  if (with_diff) {
    properties["diff"] = {{"type", "boolean"},
                          {"description", "Include a unified diff for every stale file"}};
  }
  return {{"type", "object"}, {"properties", properties}, {"additionalProperties", false}};
}

CompileOptions VerifyOptions(const json& args) {
  CompileOptions options;
  options.root = args.value("root", std::string("."));
  options.targets = args.value("targets", std::vector<std::string>());
  options.diff = args.value("diff", false);
  options.write = false;  // the MCP tools never write
  return options;
}

Result<json> RunCompileTool(const json& args) {
  STRATA_TRY_ASSIGN(CompileReport report, Compile(VerifyOptions(args)));
  json out = ReportJson(report, "verify");
  out["ok"] = report.ok;
  return out;
}

Result<json> RunAuditTool(const json& args) {
  STRATA_TRY_ASSIGN(CompileReport report, Compile(VerifyOptions(args)));
  std::vector<Diagnostic> findings = CheckStability(report);
  json out = ReportJson(report, "audit");
  out["stability"] = {{"stable", findings.empty()}, {"findings", DiagnosticsJson(findings)}};
  out["ok"] = report.ok && findings.empty();
  return out;
}

// The file names a client reads, most specific first, from its root-level target file.
Result<std::vector<std::string>> ClientNames(const std::string& client) {
  if (client == "codex") return std::vector<std::string>{"AGENTS.md"};
  for (const auto& [id, name] :
       std::vector<std::pair<std::string, std::string>>{{"claude-code", "CLAUDE.md"},
                                                        {"gemini-cli", "GEMINI.md"},
                                                        {"qwen-code", "QWEN.md"},
                                                        {"crush", "CRUSH.md"},
                                                        {"warp", "WARP.md"}}) {
    if (id == client) return std::vector<std::string>{name, "AGENTS.md"};
  }
  return MakeError(ErrorKind::kInvalidArgument,
                   "no discovery profile for client '" + client +
                       "'; known: claude-code, codex, gemini-cli, qwen-code, crush, warp");
}

Result<json> RunDiscoverTool(const json& args) {
  DiscoverOptions options;
  options.working_dir = args.value("dir", std::string("."));
  if (args.contains("client")) {
    STRATA_TRY_ASSIGN(options.file_names, ClientNames(args["client"].get<std::string>()));
  }
  STRATA_TRY_ASSIGN(Discovery d,
                    args.value("all", false) ? DiscoverAll(options) : Discover(options));
  json sources = json::array();
  for (const Source& s : d.sources) {
    sources.push_back({{"origin", SourceOriginName(s.origin)},
                       {"path", s.display_path},
                       {"bytes", s.bytes},
                       {"truncated", s.truncated}});
  }
  return json{{"working_dir", d.working_dir.string()},
              {"project_root", d.project_root.string()},
              {"sources", sources},
              {"diagnostics", DiagnosticsJson(d.diagnostics)}};
}

std::vector<McpTool> Tools() {
  json discover_schema = {
      {"type", "object"},
      {"properties",
       {{"dir", {{"type", "string"}, {"description", "Working directory (default: .)"}}},
        {"client",
         {{"type", "string"},
          {"description", "Discover as this client reads (claude-code, codex, gemini-cli, ...)"}}},
        {"all", {{"type", "boolean"}, {"description", "Also list files below dir"}}}}},
      {"additionalProperties", false}};
  return {
      {"audit",
       "Check that every compiled client instruction file is current and stable (strata audit): "
       "stale, missing or orphaned files, and volatile text in the cached head band.",
       CompileSchema(false), RunAuditTool},
      {"compile",
       "Verify the compiled client instruction files against the banded AGENTS.md without "
       "writing anything (strata compile --verify); diff: true adds a unified diff per stale file.",
       CompileSchema(true), RunCompileTool},
      {"discover",
       "List the instruction files an agent working in dir sees, in order (strata discover).",
       discover_schema, RunDiscoverTool},
  };
}

}  // namespace

void AddMcpCommand(CLI::App& app, int* exit_code) {
  CLI::App* sub = app.add_subcommand(
      "mcp", "Serve audit, compile (verify only) and discover as MCP tools over stdio");
  sub->callback([exit_code] {
    McpServerInfo info;
    info.version = "0.1.0";
    info.instructions =
        "strata compiles one banded AGENTS.md into every coding client's instruction file. "
        "Use discover to see what a client reads, compile to check the compiled files, audit to "
        "also run the stability gate.";
    RunMcpServer(std::cin, std::cout, Tools(), info);
    *exit_code = 0;
  });
}

}  // namespace strata::cli
