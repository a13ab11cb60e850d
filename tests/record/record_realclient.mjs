// record_realclient.mjs: `strata record` between the real Claude Code and Codex CLI binaries
// (pinned npm packages, scripts/setup-clients.sh) and a stub upstream (stub_upstream.mjs) that
// answers the first step with one Bash call (`echo hi`) and the second with text.
//
// Checks, per harness: the two-step run completes; every body the stub received appears verbatim
// in the record file (what the harness sent strata is what the upstream got); the file holds both
// model requests with the stub's usage and no credential; and `strata replay --format recorded`
// (with `--layout recorded` when this build has it) gives the stub's usage back.
//
// Usage: node record_realclient.mjs STRATA_CLI SOURCE_DIR. Exit 0 pass, 1 fail, 77 skip (no
// client cache: ctest SKIP_RETURN_CODE).
import { execFileSync, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";

const [strata, sourceDir] = process.argv.slice(2);
const here = path.join(sourceDir, "tests", "record");
const USAGE = JSON.parse(fs.readFileSync(path.join(here, "stub_usage.json"), "utf8"));
const ANTHROPIC_KEY = "sk-ant-realclient-credential-1234";
const LOCAL_KEY = "sk-local-realclient-credential-5678";
let failures = 0;

function check(ok, what) {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failures += 1;
}

function nodeModules() {
  const r = spawnSync("bash", [path.join(sourceDir, "scripts", "setup-clients.sh")], { encoding: "utf8" });
  if (r.status !== 0) return null;
  return r.stdout.trim().split("\n").pop();
}

// Starts `cmd args`, resolves with the child and the port of its first stdout line.
function startListening(cmd, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ["ignore", "pipe", "inherit"] });
    const lines = readline.createInterface({ input: child.stdout });
    lines.once("line", (line) => {
      const m = line.match(/127\.0\.0\.1:(\d+)/) || line.match(/^listening (\d+)/);
      if (m) resolve({ child, port: Number(m[1]) });
      else reject(new Error(`no port in: ${line}`));
    });
    child.once("exit", (code) => reject(new Error(`${cmd} exited ${code} before listening`)));
  });
}

function stop(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve(child.exitCode);
    child.once("exit", (code) => resolve(code));
    child.kill("SIGTERM");
  });
}

// Runs a harness (bounded in time), returning its status and output.
function runHarness(cmd, args, options) {
  const r = spawnSync(cmd, args, { ...options, encoding: "utf8", timeout: 180000 });
  if (r.status !== 0) console.log(`--- ${cmd} status ${r.status} ${r.signal || ""}\n${r.stdout}\n${r.stderr}`);
  return r;
}

// The stub's answer to a request, by the stub's own rule: its canned usage.
function expectedUsage(api, request) {
  if (api === "anthropic-messages") {
    const toolResult = (request.messages || []).some((m) => Array.isArray(m.content) && m.content.some((b) => b.type === "tool_result"));
    const bash = (request.tools || []).some((t) => t.name === "Bash");
    return bash && !toolResult ? USAGE.anthropic_tool : USAGE.anthropic_text;
  }
  const done = (request.input || []).some((i) => i.type === "function_call_output");
  const tool = (request.tools || []).some((t) => t.type === "function" && /shell|exec_command/.test(t.name || ""));
  return tool && !done ? USAGE.responses_tool : USAGE.responses_text;
}

// Equal JSON values, member order aside.
function canonical(v) {
  if (Array.isArray(v)) return v.map(canonical);
  if (v && typeof v === "object") return Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical(v[k])]));
  return v;
}
function sameJson(a, b) {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

// `strata replay --format recorded` of the record file (with --layout recorded when this build's
// replay has it), as JSON; null when replay cannot read recorded files.
function replayRecorded(file, provider) {
  const help = spawnSync(strata, ["replay", "--help"], { encoding: "utf8" });
  const lines = (help.stdout || "").split("\n");
  const layout = lines.find((l) => l.includes("--layout")) || "";
  const args = ["replay", "--transcript", file, "--format", "recorded", "--provider", provider, "--json"];
  if (layout.includes("recorded")) args.push("--layout", "recorded");
  const r = spawnSync(strata, args, { encoding: "utf8" });
  if (r.status !== 0 && /unknown (transcript )?format/.test(r.stderr)) return null;
  if (r.status !== 0) return { error: r.stderr };
  return JSON.parse(r.stdout);
}

async function recordRun(name, api, run) {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), `strata-record-${name}-`));
  const bodies = path.join(scratch, "bodies");
  fs.mkdirSync(bodies);
  const out = path.join(scratch, "requests.jsonl");
  const stub = await startListening("node", [path.join(here, "stub_upstream.mjs"), "--bodies", bodies]);
  const record = await startListening(strata, ["record", "--upstream", `http://127.0.0.1:${stub.port}`, "--listen", "127.0.0.1:0", "--out", out]);
  let result;
  try {
    result = run(record.port, scratch);
  } finally {
    check((await stop(record.child)) === 0, `${name}: strata record stops cleanly on SIGTERM`);
    await stop(stub.child);
  }
  check(result.status === 0, `${name}: the harness completes its two-step run (exit ${result.status})`);
  const text = fs.existsSync(out) ? fs.readFileSync(out, "utf8") : "";
  const lines = text.split("\n").filter(Boolean).map((l) => JSON.parse(l));
  const received = fs.readdirSync(bodies).filter((f) => f.endsWith(".body")).sort((a, b) => parseInt(a) - parseInt(b));
  const modelBodies = received.filter((f) => {
    const meta = JSON.parse(fs.readFileSync(path.join(bodies, f.replace(".body", ".headers.json")), "utf8"));
    return meta.method === "POST" && /\/(messages|responses)(\?|$)/.test(meta.url);
  });
  for (const f of received) {
    const meta = JSON.parse(fs.readFileSync(path.join(bodies, f.replace(".body", ".headers.json")), "utf8"));
    const key = meta.headers["x-api-key"] || meta.headers["authorization"] || "";
    if (modelBodies.includes(f)) check(key.includes(ANTHROPIC_KEY) || key.includes(LOCAL_KEY), `${name}: request ${f} reached the stub with its credential`);
  }
  check(lines.length === modelBodies.length && lines.length >= 2, `${name}: one line per model request (${lines.length} lines, ${modelBodies.length} requests)`);
  modelBodies.forEach((f) => {
    const body = fs.readFileSync(path.join(bodies, f), "utf8");
    check(text.includes(`"request":${body},"usage"`), `${name}: body ${f} (${body.length} bytes) is in the file byte for byte`);
  });
  lines.forEach((line, i) => {
    check(line.api === api && line.status === 200, `${name}: line ${i + 1} is ${api}, status 200`);
    check(sameJson(line.usage, expectedUsage(api, line.request)), `${name}: line ${i + 1} has the stub's usage ${JSON.stringify(line.usage)}`);
  });
  const steps = lines.map((l) => expectedUsage(api, l.request));
  const anthropic = api === "anthropic-messages";
  check(steps.includes(anthropic ? USAGE.anthropic_tool : USAGE.responses_tool) &&
    steps.includes(anthropic ? USAGE.anthropic_text : USAGE.responses_text), `${name}: both steps (tool call, final text) were recorded`);
  check(!text.includes(ANTHROPIC_KEY) && !text.includes(LOCAL_KEY), `${name}: no credential in the file`);
  const replay = replayRecorded(out, api === "anthropic-messages" ? "anthropic" : "openai");
  if (replay === null) {
    console.log(`skip ${name}: this build's replay reads no recorded files`);
  } else if (replay.error) {
    check(false, `${name}: strata replay --layout recorded: ${replay.error}`);
  } else {
    const read = lines.map((l) => l.usage.cache_read_input_tokens ?? l.usage.input_tokens_details?.cached_tokens ?? 0);
    const got = (replay.turns || []).map((t) => (t.recorded || {}).cache_read_tokens);
    check(sameJson(got, read), `${name}: replay --format recorded gives the stub's cache reads back per request (${JSON.stringify(got)})`);
  }
  fs.rmSync(scratch, { recursive: true, force: true });
}

const nm = nodeModules();
if (!nm || !fs.existsSync(path.join(nm, ".bin", "claude")) || !fs.existsSync(path.join(nm, ".bin", "codex"))) {
  console.log("skip: the pinned clients are not installed (bash scripts/setup-clients.sh)");
  process.exit(77);
}
const prompt = "Run the shell command `echo hi` with your shell tool, then tell me what it printed.";

await recordRun("claude-code", "anthropic-messages", (port, scratch) => {
  const home = path.join(scratch, "home");
  const project = path.join(scratch, "project");
  fs.mkdirSync(home);
  fs.mkdirSync(project);
  const env = { PATH: process.env.PATH, HOME: home, ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}`,
    ANTHROPIC_API_KEY: ANTHROPIC_KEY, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1", DISABLE_TELEMETRY: "1" };
  return runHarness(path.join(nm, ".bin", "claude"), ["-p", prompt, "--output-format", "json", "--allowedTools", "Bash"], { cwd: project, env });
});

await recordRun("codex", "openai-responses", (port, scratch) => {
  const codexHome = path.join(scratch, "codex-home");
  const project = path.join(scratch, "project");
  fs.mkdirSync(codexHome);
  fs.mkdirSync(project);
  fs.writeFileSync(path.join(codexHome, "config.toml"), [
    `model = "gpt-5-codex"`, `model_provider = "local"`, ``, `[model_providers.local]`, `name = "local"`,
    `base_url = "http://127.0.0.1:${port}/v1"`, `wire_api = "responses"`, `env_key = "LOCAL_API_KEY"`, ``].join("\n"));
  const env = { PATH: process.env.PATH, HOME: path.join(scratch, "home"), CODEX_HOME: codexHome, LOCAL_API_KEY: LOCAL_KEY };
  return runHarness(path.join(nm, ".bin", "codex"), ["exec", "--skip-git-repo-check", prompt], { cwd: project, env });
});

console.log(failures === 0 ? "record realclient: all checks passed" : `record realclient: ${failures} check(s) failed`);
process.exit(failures === 0 ? 0 : 1);
