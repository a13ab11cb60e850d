// mcp_sdk_client_test.mjs: `strata mcp` driven by the official MCP TypeScript SDK client over
// stdio: initialize, list the tools, call each one on a small tree, and a bad argument.
// Usage: node mcp_sdk_client_test.mjs STRATA_BINARY NODE_MODULES_DIR
// Exit 0: pass; 1: fail (message on stderr); 77: skipped (the SDK is not installed).
import { existsSync, mkdtempSync, mkdirSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [strata, nodeModules] = process.argv.slice(2);
const sdk = join(nodeModules ?? "", "@modelcontextprotocol/sdk/dist/esm");
if (!nodeModules || !existsSync(sdk)) {
  console.error(`skip: @modelcontextprotocol/sdk not under ${nodeModules} (bash scripts/setup-clients.sh)`);
  process.exit(77);
}
const { Client } = await import(pathToFileURL(join(sdk, "client/index.js")).href);
const { StdioClientTransport } = await import(pathToFileURL(join(sdk, "client/stdio.js")).href);

function check(cond, what) {
  if (!cond) {
    console.error(`FAIL: ${what}`);
    process.exit(1);
  }
}

const root = mkdtempSync(join(tmpdir(), "strata-mcp-"));
writeFileSync(join(root, "AGENTS.md"), "<!-- strata:head -->\n# P\n");
writeFileSync(join(root, "strata.toml"), 'targets = ["claude-code"]\n');
mkdirSync(join(root, ".git"));

const transport = new StdioClientTransport({ command: strata, args: ["mcp"], cwd: root, stderr: "inherit" });
const client = new Client({ name: "strata-test", version: "1.0.0" });
const timer = setTimeout(() => { console.error("FAIL: timed out after 30 s"); process.exit(1); }, 30000);
try {
  await client.connect(transport);
  check(client.getServerVersion()?.name === "strata", "serverInfo.name is strata");
  check(client.getServerCapabilities()?.tools !== undefined, "tools capability");

  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name).sort();
  check(JSON.stringify(names) === JSON.stringify(["audit", "compile", "discover", "explain"]), `tools: ${names}`);
  for (const t of tools) check(t.inputSchema?.type === "object", `${t.name} has an object schema`);

  const compile = await client.callTool({ name: "compile", arguments: { root, diff: true } });
  check(compile.isError === false, "compile ran");
  check(compile.structuredContent.ok === false, "compile reports the missing CLAUDE.md");
  check(compile.structuredContent.targets[0].status === "missing", "CLAUDE.md missing");
  check(!existsSync(join(root, "CLAUDE.md")), "the compile tool writes nothing");

  const audit = await client.callTool({ name: "audit", arguments: { root } });
  check(audit.isError === false && audit.structuredContent.stability.stable === true, "audit stable");

  const discover = await client.callTool({ name: "discover", arguments: { dir: root } });
  check(discover.isError === false, "discover ran");
  const paths = discover.structuredContent.sources.map((s) => s.path);
  check(paths.includes("AGENTS.md"), `discover lists AGENTS.md: ${paths}`);

  // Codex reads AGENTS.md and never CLAUDE.md: the client's own profile, not a name list.
  writeFileSync(join(root, "CLAUDE.md"), "# Claude only\n");
  const codex = await client.callTool({ name: "discover", arguments: { dir: root, client: "codex" } });
  const codexPaths = codex.structuredContent.sources.map((s) => s.path);
  check(codexPaths.includes("AGENTS.md") && !codexPaths.includes("CLAUDE.md"), `codex profile: ${codexPaths}`);
  const claude = await client.callTool({ name: "discover", arguments: { dir: root, client: "claude-code" } });
  const claudePaths = claude.structuredContent.sources.map((s) => s.path);
  check(claudePaths.includes("CLAUDE.md") && !claudePaths.includes("AGENTS.md"), `claude-code profile: ${claudePaths}`);
  const unknown = await client.callTool({ name: "discover", arguments: { dir: root, client: "nope" } });
  check(unknown.isError === true, "an unknown client is an error result");

  // explain: B's system text differs from A's at a known place (strata-local, beside strata).
  const body = (system) => JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 16,
    system, messages: [{ role: "user", content: "hello" }] });
  writeFileSync(join(root, "a.json"), body("You are a careful assistant. Rule one."));
  writeFileSync(join(root, "b.json"), body("You are a careful assistant. Rule two."));
  const explain = await client.callTool({ name: "explain",
    arguments: { a: join(root, "a.json"), b: join(root, "b.json") } });
  check(explain.isError === false, `explain ran: ${JSON.stringify(explain.content)}`);
  check(JSON.stringify(explain.structuredContent).length > 2, "explain returned its JSON");
  const missing = await client.callTool({ name: "explain", arguments: { a: join(root, "a.json") } })
    .catch((e) => ({ isError: true, e }));
  check(missing.isError === true, "explain without b is refused");

  let rejected = false;
  try {
    const bad = await client.callTool({ name: "compile", arguments: { root: 42 } });
    rejected = bad.isError === true;
  } catch (e) {
    rejected = /-32602|invalid arguments/i.test(String(e?.message ?? e));
  }
  check(rejected, "a wrong argument type is refused");

  const failing = await client.callTool({ name: "compile", arguments: { root: join(root, "nope") } });
  check(failing.isError === true, "a tool error is a result with isError");
  console.log("ok: initialize, tools/list, audit, compile, discover (profiles), explain, bad argument");
} finally {
  clearTimeout(timer);
  await client.close().catch(() => {});
  rmSync(root, { recursive: true, force: true });
}
