// cmd_mcp.cc: `strata mcp`: an MCP server over stdio (strata/mcp.h) exposing audit, compile
// (verify only: it never writes), discover (with a client's profile) and explain as tools.
// explain counts tokens with llama.cpp vocabularies, which the core `strata` binary never loads:
// the tool runs `strata-local explain --json` for each call (docs/mcp.md).
#include <filesystem>
#include <iostream>
#include <optional>

#include "commands.h"
#include "compile_json.h"
#include "output.h"
#include "strata/compile.h"
#include "strata/discover.h"
#include "strata/mcp.h"

namespace strata::cli {

namespace {

using nlohmann::json;
namespace fs = std::filesystem;

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

Result<json> RunDiscoverTool(const json& args) {
  DiscoverOptions options;
  options.working_dir = args.value("dir", std::string("."));
  if (args.contains("client")) {
    const std::string name = args["client"].get<std::string>();
    std::optional<Client> client = ClientFromName(name);
    if (!client) {
      return MakeError(ErrorKind::kInvalidArgument,
                       "unknown client '" + name + "'; valid clients: " + ClientNameList());
    }
    // The client's own settings (Codex config.toml, gemini-cli settings.json) apply as in
    // `strata discover --client`; its global files (~/.claude/CLAUDE.md, ...) only when asked,
    // since the question is about the project.
    STRATA_TRY_ASSIGN(ClientSettings settings,
                      ReadClientSettings(*client, options.working_dir, HomeDir(), CodexHome()));
    const bool global = args.value("global", false);
    options =
        ClientOptions(*client, options.working_dir, global ? HomeDir() : fs::path(), settings);
    for (const std::string& path : args.value("paths", std::vector<std::string>()))
      options.touched_paths.emplace_back(path);
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

// `strata-local explain --json A B`: explain's tokenizers live in the llama.cpp executable.
Result<json> RunExplainTool(const json& args) {
  std::vector<std::string> argv = {"explain", "--json"};
  if (args.contains("tokenizer")) {
    argv.insert(argv.end(), {"--tokenizer", args["tokenizer"].get<std::string>()});
  }
  if (args.contains("vocab_dir")) {
    argv.insert(argv.end(), {"--vocab-dir", args["vocab_dir"].get<std::string>()});
  }
  argv.push_back(args["a"].get<std::string>());
  argv.push_back(args["b"].get<std::string>());
  STRATA_TRY_ASSIGN(DelegateRun run, RunDelegate("strata-local", argv));
  json out = json::parse(run.out, nullptr, false);
  if (run.exit_code != 0 || out.is_discarded()) {
    return MakeError(ErrorKind::kInvalidArgument, "strata explain failed (exit " +
                                                      std::to_string(run.exit_code) +
                                                      "): see the server's stderr for the message");
  }
  return out;
}

json ExplainSchema() {
  auto text = [](const char* what) { return json{{"type", "string"}, {"description", what}}; };
  return {{"type", "object"},
          {"properties",
           {{"a", text("Path of the earlier request (a provider request body or strata assemble "
                       "output)")},
            {"b", text("Path of the later request")},
            {"tokenizer", text("auto (default), a llama.cpp vocabulary name or a .gguf path")},
            {"vocab_dir", text("Directory of ggml-vocab-*.gguf")}}},
          {"required", {"a", "b"}},
          {"additionalProperties", false}};
}

// An McpTool (JSON text in and out, mcp.h) over a tool written against parsed JSON.
McpTool JsonTool(std::string name, std::string description, const json& schema,
                 Result<json> (*run)(const json&)) {
  return {std::move(name), std::move(description), schema.dump(),
          [run](const std::string& arguments_json) -> Result<std::string> {
            STRATA_TRY_ASSIGN(json out, run(json::parse(arguments_json, nullptr, false)));
            return out.dump();
          }};
}

std::vector<McpTool> Tools() {
  json discover_schema = {
      {"type", "object"},
      {"properties",
       {{"dir", {{"type", "string"}, {"description", "Working directory (default: .)"}}},
        {"client",
         {{"type", "string"},
          {"description", "Discover by this client's documented rules: " + ClientNameList()}}},
        {"global",
         {{"type", "boolean"},
          {"description", "With client: also the client's global files under $HOME"}}},
        {"paths",
         {{"type", "array"},
          {"items", {{"type", "string"}}},
          {"description",
           "With client: files the agent touches; conditional rules (paths:, applyTo:, globs:) "
           "matching one of them load"}}},
        {"all", {{"type", "boolean"}, {"description", "Also list files below dir"}}}}},
      {"additionalProperties", false}};
  return {
      JsonTool(
          "audit",
          "Check that every compiled client instruction file is current and stable (strata audit): "
          "stale, missing or orphaned files, and volatile text in the cached head band.",
          CompileSchema(false), RunAuditTool),
      JsonTool("compile",
               "Verify the compiled client instruction files against the banded AGENTS.md without "
               "writing anything (strata compile --verify); diff: true adds a unified diff per "
               "stale file.",
               CompileSchema(true), RunCompileTool),
      JsonTool(
          "discover",
          "List the instruction files an agent working in dir sees, in order (strata discover).",
          discover_schema, RunDiscoverTool),
      JsonTool(
          "explain",
          "Explain why request b misses the cache request a filled (strata explain): the first "
          "differing prompt position, the layer that owns it and the breakpoints it invalidates.",
          ExplainSchema(), RunExplainTool),
  };
}

}  // namespace

void AddMcpCommand(CLI::App& app, int* exit_code) {
  CLI::App* sub = app.add_subcommand(
      "mcp", "Serve audit, compile (verify only), discover and explain as MCP tools over stdio");
  sub->callback([exit_code] {
    McpServerInfo info;
    info.version = "0.1.0";
    info.instructions =
        "strata compiles one banded AGENTS.md into every coding client's instruction file. "
        "Use discover to see what a client reads, compile to check the compiled files, audit to "
        "also run the stability gate, explain to find why a request missed the cache.";
    RunMcpServer(std::cin, std::cout, Tools(), info);
    *exit_code = 0;
  });
}

}  // namespace strata::cli
