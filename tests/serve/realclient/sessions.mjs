// sessions.mjs: real harness sessions as people run them, recorded, then replayed to strata serve.
//
//   node sessions.mjs --harness claude|claude-cch|codex|opencode|pi|mixed --strata STRATA --strata-local STRATA_LOCAL
//                     --model GGUF --vocab-dir DIR --setup-clients scripts/setup-clients.sh
//                     [--keep] [--compare-keep] [--more] [--save FILE] [--from A.json,B.json]
//
// 1. Capture. A scripted upstream (scripted_upstream.mjs: a tool call of the harness's shell tool,
//    then a final text, per turn) behind `strata record`, one record file per session:
//    every harness: its terminal UI in an interactive tmux session (a tmux server on a socket of
//    the test's own; new-session -d, send-keys, capture-pane), two turns with different prompts,
//    each running a tool call; then two one-shot runs with different first prompts. The harnesses:
//    - claude: Claude Code 2.1.328 (`claude`, `claude -p`);
//    - claude-cch: Claude Code 2.1.117 (`setup-clients.sh claude-code-cch`), which sends a cch
//      value per request (`claude`, `claude -p`);
//    - codex: Codex CLI 0.171.0 (`codex --no-daemon`, `codex exec`);
//    - opencode: opencode 1.18.33 (`opencode`, `opencode run`);
//    - pi: Pi 0.73.1 (`setup-clients.sh pi`) with an OpenAI-compatible provider (`pi`, `pi -p`).
//    Each harness gets a temporary HOME (and CODEX_HOME, XDG directories) configured so that it
//    opens at its prompt with no first-run screen; nothing of the machine's home is read.
// 2. Replay. The recorded bodies go to `strata serve` (the generated model), in their original
//    order (a title request at once with the request it accompanied, as the harness sent them:
//    opencode's, the Codex UI's); again in order to a new server and store that is stopped after
//    half of them and started again on the same store for the rest (across a restart); then the
//    one-shot sessions again on a new server and store, both at once. Before each request the
//    test asks the server's POST /tokenize for the request's prompt tokens; the tokens it shares
//    with an earlier request are the longest common prefix with any request answered before it
//    was sent. Asserted: every request reuses (usage: cached tokens) at least 95% of that (after
//    the restart from the store, a longer checkpoint cut back to the shared part included, down
//    to the dozen template tokens sessions with different system texts share); the first request of the second one-shot session restores at
//    least 95% of its system and tools part (the prompt up to its first message, from /tokenize
//    of the same body with one short message). A request whose billing block differs from that of
//    the session's previous request (Claude Code 2.1.117's cch) also reuses >= 95% of what the
//    two share had their blocks been the same (sharedDespiteBlock below): the server's own
//    tokenization counts the block, which the rule leaves out. Each replay prints its report table, per session
//    and for all, as `sessions-report` lines (table() below).
// 3. claude-cch: in each session, every two consecutive requests with tools (as recorded from the
//    real 2.1.117) carry different cch values, and `strata explain` on them reports no lost
//    cached token.
// --compare-keep replays once more with `strata serve --keep-client-text` (the billing block kept,
// as before the client registry) and prints those numbers beside, and what the in-order replay
// would fail ("would fail:"), without asserting on them.
// --more (a user going on, not run by ctest): a third turn in the interactive session and a second
// interactive session with another first prompt after the one-shot ones; the same checks.
// --save FILE writes the recorded sessions to FILE; `--harness mixed --from A.json,B.json` sends two
// such files' sessions to one server at once instead (replayMixed below).
// --usage (claude, codex, opencode; ctest realclient.usage.<harness>): after the capture, no
// replay: `strata usage --json` on the harness's own logs (Claude Code's session files, Codex's
// rollouts, opencode's SQLite store) must report each session with the requests and token figures
// the scripted upstream served (checkUsage below); every file of the log directory keeps its bytes
// and none is added. Needs only --strata and --setup-clients.
//
// Every wait is bounded. Exit 0 pass, 1 fail, 77 skip (node, tmux, clients or model missing).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';

import { startScriptedUpstream } from './scripted_upstream.mjs';

const SKIP = 77;
const RUN_TIMEOUT_MS = 120_000;  // one one-shot run
const TURN_TIMEOUT_MS = 90_000;  // one interactive turn until its final answer
const START_TIMEOUT_MS = 60_000;
const TUI_START_TIMEOUT_MS = 90_000;  // a terminal UI until its prompt shows (opencode: ~35 s on a busy machine)
const REQUEST_TIMEOUT_MS = 180_000;
const MODEL_ALIAS = 'strata-test';
const API_KEY = 'sk-ant-strata-test-0123456789abcdef';
const REUSE = 0.95;

function parseArgs(argv) {
  const args = { keep: false, compare_keep: false };
  for (let i = 2; i < argv.length; ++i) {
    const a = argv[i];
    if (a === '--keep') args.keep = true;
    else if (a === '--compare-keep') args.compare_keep = true;
    else if (a === '--more') args.more = true;
    else if (a === '--usage') args.usage = true;
    else if (a.startsWith('--')) args[a.slice(2).replace(/-/g, '_')] = argv[++i];
  }
  return args;
}

const log = (...p) => console.log('[sessions]', ...p);
let failed = false;
function fail(m) { console.error(`[sessions] FAIL: ${m}`); failed = true; return false; }
function skip(m) { console.log(`[sessions] SKIP: ${m}`); process.exit(SKIP); }
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function until(what, ms, pred) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const v = await pred();
    if (v) return v;
    await sleep(250);
  }
  throw new Error(`timed out after ${ms} ms waiting for ${what}`);
}

function clientModules(script, set) {
  const r = spawnSync('bash', [script, ...(set ? [set] : [])], { encoding: 'utf8' });
  const dir = (r.stdout || '').trim().split('\n').pop();
  if (r.status !== 0 || !dir || !fs.existsSync(dir)) skip(`pinned clients unavailable (${script} ${set ?? ''})`);
  return dir;
}

// The npm package of each harness and the version installed (its package.json).
const PACKAGE_OF = {
  claude: '@anthropic-ai/claude-code', 'claude-cch': '@anthropic-ai/claude-code', codex: '@openai/codex',
  opencode: 'opencode-ai', pi: '@mariozechner/pi-coding-agent',
};
function clientVersion(modules, harness) {
  return JSON.parse(fs.readFileSync(path.join(modules, PACKAGE_OF[harness], 'package.json'), 'utf8')).version;
}

// ---- strata record in front of the upstream ----

async function startRecord(strata, upstreamPort, out) {
  const child = spawn(strata, ['record', '--upstream', `http://127.0.0.1:${upstreamPort}`, '--listen', '127.0.0.1:0', '--out', out],
    { stdio: ['ignore', 'pipe', 'inherit'] });
  const rl = readline.createInterface({ input: child.stdout });
  const port = await Promise.race([
    new Promise((resolve, reject) => {
      rl.once('line', (line) => {
        const m = line.match(/127\.0\.0\.1:(\d+)/);
        if (m) resolve(Number(m[1])); else reject(new Error(`strata record said: ${line}`));
      });
      child.once('exit', (c) => reject(new Error(`strata record exited ${c}`)));
    }),
    sleep(START_TIMEOUT_MS).then(() => { throw new Error('strata record did not start'); }),
  ]);
  return { child, port };
}

async function stop(child) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const done = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const t = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await done;
  clearTimeout(t);
}

function readRecord(file) {
  if (!fs.existsSync(file)) return [];
  return fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

// ---- Claude Code ----

function claudeHome(home, project, version) {
  fs.mkdirSync(path.join(home, 'tmp'), { recursive: true });
  // Onboarding done, the project trusted and the API key approved, as after a first start.
  fs.writeFileSync(path.join(home, '.claude.json'), JSON.stringify({
    hasCompletedOnboarding: true, lastOnboardingVersion: version, theme: 'dark', numStartups: 3,
    customApiKeyResponses: { approved: [API_KEY.slice(-20)], rejected: [] },
    projects: { [project]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true, allowedTools: [] } },
  }));
}

function claudeEnv(home, port) {
  return {
    PATH: process.env.PATH, HOME: home, USER: 'strata', LANG: 'C.UTF-8', TERM: 'xterm-256color',
    TMPDIR: path.join(home, 'tmp'),
    ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}`, ANTHROPIC_API_KEY: API_KEY,
    ANTHROPIC_MODEL: MODEL_ALIAS, ANTHROPIC_SMALL_FAST_MODEL: MODEL_ALIAS,
    ANTHROPIC_DEFAULT_HAIKU_MODEL: MODEL_ALIAS, ANTHROPIC_DEFAULT_SONNET_MODEL: MODEL_ALIAS,
    ANTHROPIC_DEFAULT_OPUS_MODEL: MODEL_ALIAS,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_TELEMETRY: '1', DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1', CLAUDE_CODE_MAX_RETRIES: '0', API_TIMEOUT_MS: '60000',
  };
}

function oneShot(bin, argv, cwd, env, outFile) {
  return new Promise((resolve) => {
    const out = fs.openSync(outFile, 'w');
    const child = spawn(bin, argv, { cwd, env, stdio: ['ignore', out, out], detached: true });
    const timer = setTimeout(() => { try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ } }, RUN_TIMEOUT_MS);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ }
      resolve({ code, signal, output: fs.readFileSync(outFile, 'utf8') });
    });
  });
}

// A tmux server of this test's own (its own socket), so that ending it touches no one else's; TERM
// set for it, as CI runs the test without one.
const TMUX_SOCKET = `strata-sessions-${process.pid}`;
const tmux = (...a) => spawnSync('tmux', ['-L', TMUX_SOCKET, ...a],
  { encoding: 'utf8', timeout: 10_000, env: { ...process.env, TERM: 'xterm-256color' } });

// Whether request body `b` carries a tool result as its last message (any of the three APIs).
function endsWithToolResult(b) {
  if (Array.isArray(b.input)) return b.input.at(-1)?.type === 'function_call_output';
  const last = (b.messages ?? []).at(-1);
  if (last?.role === 'tool') return true;
  return Array.isArray(last?.content) && last.content.some((x) => x?.type === 'tool_result');
}

// Model requests of `upstream` since index `from` whose last message carries a tool result.
const finalsSince = (upstream, from) => upstream.requests.slice(from).filter((r) => endsWithToolResult(r.body ?? {})).length;

// Per harness: how its TUI is started and left, and when it is ready for a prompt.
const TUI = {
  // Claude Code: `--allowedTools Bash` lets the tool call run without a permission dialog.
  claude: { argv: ['--allowedTools', 'Bash'], ready: (p) => p.includes('❯'), quit: [['-l', '/exit'], ['Enter']] },
  // Codex CLI: without --no-daemon the TUI starts a background app-server of its own session
  // (setsid) that outlives it; the requests are the same either way.
  codex: { argv: ['--no-daemon'], ready: (p) => p.includes('›') && p.includes(MODEL_ALIAS), quit: [['C-c'], ['C-c']] },
  opencode: { argv: [], ready: (p) => p.includes('Ask anything'), quit: [['C-c']] },
  // Pi: its startup help line and the model in the footer; Ctrl-D on an empty editor ends it.
  pi: { argv: ['--provider', 'local', '--model', MODEL_ALIAS], ready: (p) => p.includes('escape interrupt') && p.includes(MODEL_ALIAS), quit: [['C-d']] },
};
TUI['claude-cch'] = TUI.claude;  // Claude Code 2.1.117's terminal UI starts and ends as 2.1.328's

// An interactive session: `turns` prompts typed into the harness's TUI in tmux (send-keys,
// capture-pane); each turn ends when the upstream has answered a request carrying a tool result
// sent during the turn and the pane shows the answer ("Done."). Every wait has a deadline; on a
// timeout the last pane is printed. The harness's process group is killed at the end.
async function interactive(harness, bin, cwd, env, upstream, turns, work, label) {
  const tui = TUI[harness];
  const name = `strata-${label}`;
  const envFile = path.join(work, `${label}.env`);
  fs.writeFileSync(envFile, Object.entries(env).map(([k, v]) => `export ${k}='${v}'`).join('\n') + '\n');
  const r = tmux('new-session', '-d', '-s', name, '-x', '160', '-y', '50', '-c', cwd,
    `bash -c 'source ${envFile}; exec ${bin} ${tui.argv.join(' ')}'`);
  if (r.status !== 0) throw new Error(`tmux new-session: ${r.stderr}`);
  const pid = Number(tmux('display-message', '-p', '-t', name, '#{pane_pid}').stdout);
  const pane = () => tmux('capture-pane', '-p', '-t', name).stdout ?? '';
  const step = async (what, ms, pred) => {
    try { await until(what, ms, pred); } catch (e) {
      console.error(`[sessions] ${harness} ${label}: the last pane:\n${pane()}`);
      throw e;
    }
  };
  try {
    await step(`${harness}'s prompt`, TUI_START_TIMEOUT_MS, () => tui.ready(pane()));
    for (const [i, text] of turns.entries()) {
      const before = upstream.requests.length;
      tmux('send-keys', '-t', name, '-l', text);
      await sleep(300);
      tmux('send-keys', '-t', name, 'Enter');
      await step(`turn ${i + 1}'s final answer`, TURN_TIMEOUT_MS,
        () => finalsSince(upstream, before) >= 1 && pane().split('Done.').length > i + 1);
      await sleep(1000);
    }
    fs.writeFileSync(path.join(work, `${label}.pane`), pane());
  } finally {
    for (const keys of tui.quit) { tmux('send-keys', '-t', name, ...keys); await sleep(700); }
    await sleep(1000);
    try { process.kill(-pid, 'SIGKILL'); } catch { /* ended */ }
    tmux('kill-server');
    // tmux 3.3a leaves its socket file behind.
    fs.rmSync(path.join(process.env.TMUX_TMPDIR || '/tmp', `tmux-${process.getuid()}`, TMUX_SOCKET), { force: true });
  }
}

// Codex CLI and opencode pointed at `port` (docs/serve-clients.md has the set-ups): { bin, env }.
// The configuration sits in a temporary HOME, CODEX_HOME and XDG directories of the test, so
// nothing of the machine's own home is read; `tui` sets TERM for a terminal UI.
function harnessSpec(harness, modules, home, project, port, tui) {
  const xdg = {
    XDG_CONFIG_HOME: path.join(home, '.config'), XDG_DATA_HOME: path.join(home, '.local/share'),
    XDG_CACHE_HOME: path.join(home, '.cache'), XDG_STATE_HOME: path.join(home, '.local/state'),
  };
  for (const d of Object.values(xdg)) fs.mkdirSync(d, { recursive: true });
  const env = { PATH: process.env.PATH, HOME: home, USER: 'strata', LANG: 'C.UTF-8', TERM: tui ? 'xterm-256color' : 'dumb', NO_COLOR: '1', TMPDIR: path.join(home, 'tmp'), ...xdg };
  if (harness === 'pi') {
    // Pi's custom provider (its docs/models.md): an OpenAI-compatible endpoint, a system message
    // rather than a developer one, no reasoning_effort.
    const agentDir = path.join(home, '.pi', 'agent');
    fs.mkdirSync(agentDir, { recursive: true });
    fs.writeFileSync(path.join(agentDir, 'models.json'), JSON.stringify({
      providers: { local: { baseUrl: `http://127.0.0.1:${port}/v1`, api: 'openai-completions', apiKey: 'x',
        compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
        models: [{ id: MODEL_ALIAS, contextWindow: 32768, maxTokens: 64 }] } },
    }));
    return { bin: path.join(modules, '.bin', 'pi'), env: { ...env, PI_CODING_AGENT_DIR: agentDir, PI_OFFLINE: '1', PI_TELEMETRY: '0' } };
  }
  if (harness === 'codex') {
    const codexHome = path.join(home, 'codex');
    fs.mkdirSync(codexHome, { recursive: true });
    // The project marked trusted and the update check off: the TUI starts at its prompt, with no
    // first-run screen (a provider with an env_key needs no login).
    fs.writeFileSync(path.join(codexHome, 'config.toml'), [
      `model = "${MODEL_ALIAS}"`, 'model_provider = "local"', 'approval_policy = "never"', 'sandbox_mode = "read-only"',
      'check_for_update_on_startup = false', '',
      `[projects.${JSON.stringify(project)}]`, 'trust_level = "trusted"', '',
      '[model_providers.local]', 'name = "strata"', `base_url = "http://127.0.0.1:${port}/v1"`, 'wire_api = "responses"',
      'env_key = "LOCAL_API_KEY"', 'request_max_retries = 0', 'stream_max_retries = 0', ''].join('\n'));
    return { bin: path.join(modules, '.bin', 'codex'), env: { ...env, CODEX_HOME: codexHome, LOCAL_API_KEY: 'x' } };
  }
  fs.writeFileSync(path.join(project, 'opencode.json'), JSON.stringify({
    $schema: 'https://opencode.ai/config.json', autoupdate: false, share: 'disabled',
    model: `local/${MODEL_ALIAS}`, small_model: `local/${MODEL_ALIAS}`,
    provider: { local: { npm: '@ai-sdk/openai-compatible', name: 'strata', options: { baseURL: `http://127.0.0.1:${port}/v1`, apiKey: 'x' },
      models: { [MODEL_ALIAS]: { name: MODEL_ALIAS, limit: { context: 32768, output: 64 } } } } },
  }));
  return {
    bin: path.join(modules, '.bin', 'opencode'),
    env: { ...env, OPENCODE_DISABLE_MODELS_FETCH: '1', OPENCODE_DISABLE_AUTOUPDATE: '1', OPENCODE_DISABLE_LSP_DOWNLOAD: '1', OPENCODE_DISABLE_SHARE: '1', OPENCODE_DISABLE_DEFAULT_PLUGINS: '1' },
  };
}

const ONE_SHOT_ARGV = {
  codex: (prompt) => ['exec', '--skip-git-repo-check', prompt],
  opencode: (prompt) => ['run', prompt],
  pi: (prompt) => ['--provider', 'local', '--model', MODEL_ALIAS, '-p', prompt],
};

const isModelRequest = (r) => r.method === 'POST' && /\/(messages|chat\/completions|responses)$/.test(r.url.split('?')[0]);

// The sessions of one harness: [{ label, records }], in the order they ran.
async function capture(args, harness, work) {
  const upstream = await startScriptedUpstream();
  const sessions = [];
  const claude = harness.startsWith('claude');
  const modules = clientModules(args.setup_clients, { 'claude-cch': 'claude-code-cch', pi: 'pi' }[harness]);
  const version = clientVersion(modules, harness);
  log(`${harness}: ${PACKAGE_OF[harness]} ${version}`);
  const run = async (label, body) => {
    // Each session in a project of its own at the same path, as a user starting afresh.
    const project = path.join(work, 'project');
    fs.rmSync(project, { recursive: true, force: true });
    fs.mkdirSync(project, { recursive: true });
    fs.writeFileSync(path.join(project, 'hello.txt'), 'hello from the strata session test\n');
    fs.writeFileSync(path.join(project, 'AGENTS.md'), '# Project\n\nA scratch project of the strata session test. Keep answers short.\n');
    fs.writeFileSync(path.join(project, 'CLAUDE.md'), '# Project\n\nA scratch project of the strata session test. Keep answers short.\n');
    const file = path.join(work, `${label}.jsonl`);
    const rec = await startRecord(args.strata, upstream.port, file);
    // One HOME for every session, as one user has (paths under it are in the system prompt).
    const home = path.join(work, 'home');
    fs.mkdirSync(path.join(home, 'tmp'), { recursive: true });
    const before = upstream.requests.filter(isModelRequest).length;
    try {
      await body(home, project, rec.port);
      const sent = () => upstream.requests.filter(isModelRequest).length - before;
      await until(`${label}'s record lines`, 15_000, () => readRecord(file).length >= sent());
    } finally { await stop(rec.child); }
    // The file holds a request when its answer ended; the replay wants the order they were sent.
    const records = readRecord(file).map((r, n) => [r, n]).sort((x, y) => (x[0].started_ms - y[0].started_ms) || (x[1] - y[1])).map((x) => x[0]);
    log(`${label}: ${records.length} model requests recorded`);
    sessions.push({ label, records });
  };
  try {
    const interactiveSession = (label, turns) => run(label, async (home, project, port) => {
      let bin, env;
      if (claude) {
        claudeHome(home, project, version);
        bin = path.join(modules, '.bin', 'claude');
        env = claudeEnv(home, port);
      } else {
        ({ bin, env } = harnessSpec(harness, modules, home, project, port, true));
      }
      await interactive(harness, bin, project, env, upstream, turns, work, label);
    });
    // --more: a third turn, as a user goes on.
    await interactiveSession('interactive', ['Show me what hello.txt says', 'Print hello.txt once more',
      ...(args.more ? ['And one last time, what does hello.txt contain?'] : [])]);
    const prompts = ['What is in hello.txt?', 'Print the file hello.txt for me.'];
    for (const [i, prompt] of prompts.entries()) {
      const label = `oneshot-${i + 1}`;
      await run(label, async (home, project, port) => {
        let spec;
        if (claude) {
          claudeHome(home, project, version);
          spec = { bin: path.join(modules, '.bin', 'claude'), argv: ['-p', prompt, '--allowedTools', 'Bash', '--output-format', 'json'], env: claudeEnv(home, port) };
        } else {
          spec = { ...harnessSpec(harness, modules, home, project, port, false), argv: ONE_SHOT_ARGV[harness](prompt) };
        }
        const r = await oneShot(spec.bin, spec.argv, project, spec.env, path.join(work, `${label}.out`));
        if (r.code !== 0) fail(`${harness} ${label} exited ${r.code ?? r.signal}: ${r.output.slice(-1500)}`);
      });
    }
    // --more: a second interactive session with another first prompt, after the one-shot ones.
    if (args.more) await interactiveSession('interactive-2', ['Is hello.txt empty? Look at it.', 'Show hello.txt again']);
  } finally {
    upstream.server.close();
  }
  return { sessions, version };
}

// ---- strata serve ----

async function startServe(args, work, label, extra = [], storeLabel = label) {
  const port = await new Promise((resolve) => {
    import('node:net').then(({ default: net }) => {
      const s = net.createServer();
      s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => resolve(p)); });
    });
  });
  const out = fs.openSync(path.join(work, `serve-${label}.log`), 'w');
  const child = spawn(args.strata_local, ['serve', '--model', args.model, '--host', '127.0.0.1', '--port', String(port),
    '--ctx', '32768', '--parallel', '2', '--threads', '2', '--store', path.join(work, `store-${storeLabel}`), '--alias', MODEL_ALIAS, ...extra],
  { stdio: ['ignore', out, out] });
  await until('strata serve /health', START_TIMEOUT_MS, async () => {
    if (child.exitCode !== null) throw new Error(`strata serve exited ${child.exitCode} (serve-${label}.log)`);
    try { return (await fetch(`http://127.0.0.1:${port}/health`)).status === 200; } catch { return false; }
  });
  return { child, port };
}

const API_OF = { 'anthropic-messages': ['messages', '/v1/messages'], 'openai-chat': ['chat.completions', '/v1/chat/completions'], 'openai-responses': ['responses', '/v1/responses'] };

async function postJson(port, p, body) {
  const r = await fetch(`http://127.0.0.1:${port}${p}`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const text = await r.text();
  if (r.status !== 200) throw new Error(`${p} answered ${r.status}: ${text.slice(0, 400)}`);
  return JSON.parse(text);
}

async function tokenize(port, api, body) {
  return (await postJson(port, '/tokenize', { api, request: body })).tokens;
}

function lcp(a, b) {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) ++i;
  return i;
}

function usageOf(api, u) {
  if (api === 'messages') return { prompt: u.input_tokens + (u.cache_read_input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0), cached: u.cache_read_input_tokens ?? 0 };
  if (api === 'responses') return { prompt: u.input_tokens, cached: u.input_tokens_details?.cached_tokens ?? 0 };
  return { prompt: u.prompt_tokens, cached: u.prompt_tokens_details?.cached_tokens ?? 0 };
}

// `body` with its conversation replaced by one short user message: the system and tools part.
function headOnly(api, body) {
  const user = { role: 'user', content: '.' };
  const lead = (items) => {
    const out = [];
    for (const m of items ?? []) { if (m.role === 'system' || m.role === 'developer') out.push(m); else break; }
    return out;
  };
  if (api === 'messages') return { ...body, messages: [user] };
  if (api === 'chat.completions') return { ...body, messages: [...lead(body.messages), user] };
  return { ...body, input: [...lead(Array.isArray(body.input) ? body.input : []), user] };
}

// The steps of a session, in the order its requests were sent: one request each, except that a
// request without tools (a title request: opencode's, the Codex TUI's) is sent at once with the
// turn's first request (tools, no tool result yet) that started nearest to it, as the harness
// has both in flight together. Returns [[index, ...], ...].
function stepsOf(session) {
  const recs = session.records;
  const toolless = (i) => !(recs[i].request.tools?.length);
  const partner = new Map();
  for (const [t] of recs.entries()) {
    if (!toolless(t)) continue;
    let best = -1;
    for (const [m, r] of recs.entries()) {
      if (toolless(m) || endsWithToolResult(r.request) || partner.has(m)) continue;
      if (best < 0 || Math.abs(r.started_ms - recs[t].started_ms) < Math.abs(recs[best].started_ms - recs[t].started_ms)) best = m;
    }
    if (best >= 0) { partner.set(best, t); partner.set(t, best); }
  }
  const steps = [];
  const placed = new Set();
  for (const [i] of recs.entries()) {
    if (placed.has(i)) continue;
    const step = partner.has(i) ? [i, partner.get(i)].sort((x, y) => x - y) : [i];
    for (const k of step) placed.add(k);
    steps.push(step);
  }
  return steps;
}

// The request of `rec` as replayed: not streamed, a generation budget of 4 tokens.
function replayBody(rec) {
  const [api] = API_OF[rec.api];
  const body = structuredClone(rec.request);
  body.stream = false;
  for (const k of ['max_tokens', 'max_output_tokens', 'max_completion_tokens']) if (k in body) body[k] = 4;
  // A harness that sends no budget (Codex) gets the API's own member: the generated model
  // would otherwise talk until the context is full.
  if (api === 'responses' && !('max_output_tokens' in body)) body.max_output_tokens = 4;
  else if (api !== 'responses' && !('max_tokens' in body) && !('max_completion_tokens' in body)) body.max_tokens = 4;
  return body;
}

// The billing block of an Anthropic request (system[0], Claude Code's), or undefined.
const billingBlock = (body) => {
  const t = Array.isArray(body.system) ? body.system[0]?.text : undefined;
  return typeof t === 'string' && t.startsWith('x-anthropic-billing-header:') ? t : undefined;
};

// For a request whose billing block differs from that of the session's previous request of its
// kind (with tools or without; sent in an earlier step), as Claude Code's cch does on every
// request: the tokens the two requests share had their blocks been the same (the previous one
// tokenized with this one's block). Anthropic's cache does not count the block, so neither may
// a turn's reuse: with the block rendered into the prompt this share stays long while what the
// server can reuse stops at the cch. Undefined otherwise.
async function sharedDespiteBlock(port, api, session, step, i, tokens) {
  const block = billingBlock(session.records[i].request);
  if (!block) return undefined;
  const kind = (r) => (r.request.tools?.length ?? 0) > 0;
  let j = i - 1;
  while (j >= 0 && kind(session.records[j]) !== kind(session.records[i])) --j;
  if (j < 0 || step.includes(j) || billingBlock(session.records[j].request) === block) return undefined;
  const prev = replayBody(session.records[j]);
  prev.system = [{ ...prev.system[0], text: block }, ...prev.system.slice(1)];
  return lcp(tokens, await tokenize(port, api, prev));
}

// Sends one step of `session` (its requests at once); `done` holds the token lists of the
// requests answered so far (shared by sessions running at once). Returns per-request rows.
async function sendStep(port, session, step, done) {
  const sent = [];
  for (const i of step) {
    const rec = session.records[i];
    const [api, endpoint] = API_OF[rec.api];
    const body = replayBody(rec);
    const tokens = await tokenize(port, api, body);
    const shared = done.reduce((m, t) => Math.max(m, lcp(t, tokens)), 0);
    const systemTools = i === 0 ? lcp(tokens, await tokenize(port, api, headOnly(api, body))) : 0;
    const sameBlock = await sharedDespiteBlock(port, api, session, step, i, tokens);
    sent.push({ i, api, endpoint, body, tokens, shared, systemTools, sameBlock });
  }
  const answers = await Promise.all(sent.map((x) => postJson(port, x.endpoint, x.body)));
  return sent.map((x, k) => {
    const u = usageOf(x.api, answers[k].usage);
    if (u.prompt !== x.tokens.length) fail(`${session.label}[${x.i}]: usage says ${u.prompt} prompt tokens, /tokenize ${x.tokens.length}`);
    done.push(x.tokens);
    return { label: session.label, i: x.i, prompt: u.prompt, cached: u.cached, shared: x.shared, systemTools: x.systemTools, sameBlock: x.sameBlock, at_once: step.length > 1 };
  });
}

// Sends the steps of `sessions`, one session after another.
async function sendSessions(port, sessions, done) {
  const rows = [];
  for (const session of sessions) for (const step of stepsOf(session)) rows.push(...await sendStep(port, session, step, done));
  return rows;
}

// Every request reuses >= 95% of what it shares with an earlier request, and of what it shares
// with the session's previous request once their billing blocks are the same (sharedDespiteBlock).
// `report` (--compare-keep) prints what would fail instead of failing.
function check(rows, phase, report) {
  const bad = report ? (m) => log(`would fail: ${m}`) : fail;
  for (const r of rows) {
    if (r.cached < Math.floor(REUSE * r.shared))
      bad(`${phase} ${r.label}[${r.i}]: reused ${r.cached} of the ${r.shared} tokens it shares with an earlier request (< ${REUSE * 100}%)`);
    if (r.sameBlock !== undefined && r.cached < Math.floor(REUSE * r.sameBlock))
      bad(`${phase} ${r.label}[${r.i}]: reused ${r.cached} of the ${r.sameBlock} tokens it shares with the session's previous request but for the billing block (< ${REUSE * 100}%)`);
  }
}

// Prints `rows`, then the report table's lines, one per session and one for them all, in a form
// to grep (`grep 'sessions-report'` in the test's output; docs/serve-clients.md has the figures):
//   [sessions] sessions-report harness=H version=V replay=R session=S requests=N prompt=N reused=N shared=N
// (`shared`: tokens shared with an earlier request; `first` and `system_tools`: the session's
// first request's reused tokens and its system and tools part).
function table(title, rows, tag) {
  const sum = (rs, k) => rs.reduce((s, r) => s + r[k], 0);
  log(`${title}: requests ${rows.length}, prompt tokens ${sum(rows, 'prompt')}, reused ${sum(rows, 'cached')}, shared with an earlier request ${sum(rows, 'shared')}`);
  for (const r of rows) log(`  ${r.label}[${r.i}] prompt ${r.prompt} reused ${r.cached} shared ${r.shared}${r.sameBlock !== undefined ? ` shared-but-for-the-block ${r.sameBlock}` : ''}${r.systemTools ? ` system+tools ${r.systemTools}` : ''}${r.at_once ? ' (one step, sent at once)' : ''}`);
  if (!tag) return;
  const line = (session, rs) => {
    const head = rs.find((r) => r.i === 0);
    log(`sessions-report harness=${tag.harness} version=${tag.version} replay=${tag.replay} session=${session} requests=${rs.length} ` +
      `prompt=${sum(rs, 'prompt')} reused=${sum(rs, 'cached')} shared=${sum(rs, 'shared')}` +
      (head && session !== 'all' ? ` first=${head.cached}/${head.prompt} system_tools=${head.systemTools}` : ''));
  };
  for (const label of [...new Set(rows.map((r) => r.label))]) line(label, rows.filter((r) => r.label === label));
  line('all', rows);
}

async function replay(args, sessions, work, label, extra, assert, tag) {
  // In order, one server.
  let s = await startServe(args, work, `${label}-order`, extra);
  let ordered = [];
  try {
    const done = [];
    ordered = await sendSessions(s.port, sessions, done);
  } finally { await stop(s.child); }
  table(`${label}: in order`, ordered, tag && { ...tag, replay: 'order' });
  if (!assert) check(ordered, 'in order', true);
  if (assert) {
    check(ordered, 'in order');
    const second = sessions.filter((x) => x.label.startsWith('oneshot'))[1];
    const head = second && ordered.find((r) => r.label === second.label && r.i === 0);
    if (head && head.cached < Math.floor(REUSE * head.systemTools))
      fail(`${second.label}'s first request restored ${head.cached} of its ${head.systemTools} system and tools tokens`);
  }
  // Across a restart: the first half of the requests (in order) to a new server, which is then
  // stopped; the rest to another server on the same store. What the rest share with the first
  // half can only come from the store.
  const all = sessions.flatMap((x) => stepsOf(x).map((step) => [x, step]));
  const half = Math.ceil(all.length / 2);
  let restarted = [];
  let beforeRestart = 0;  // requests sent to the first server
  {
    const done = [];
    for (const [phase, part] of [['first', all.slice(0, half)], ['second', all.slice(half)]]) {
      s = await startServe(args, work, `${label}-restart-${phase}`, extra, `${label}-restart`);
      try {
        for (const [session, step] of part) restarted.push(...await sendStep(s.port, session, step, done));
      } finally { await stop(s.child); }
      if (phase === 'first') beforeRestart = restarted.length;
    }
  }
  table(`${label}: across a restart after ${beforeRestart} of ${restarted.length} requests`, restarted, tag && { ...tag, replay: 'restart' });
  // After a restart only the store's checkpoints are left, one per cut (system and tools, the
  // end of each prompt); a share shorter than any of them, such as the dozen template tokens two
  // harness sessions with different system texts have in common, is restored from a longer one
  // cut back to it (the generated model's KV state is small: docs/serve.md, the restore rule).
  if (assert) check(restarted.slice(beforeRestart), 'after the restart');
  // Two sessions at once, a new server and store.
  const pair = sessions.filter((x) => x.label.startsWith('oneshot'));
  if (pair.length < 2) return { ordered, restarted };
  s = await startServe(args, work, `${label}-concurrent`, extra);
  let concurrent = [];
  try {
    const done = [];
    const parts = await Promise.all(pair.map((x) => sendSessions(s.port, [x], done)));
    concurrent = parts.flat();
  } finally { await stop(s.child); }
  table(`${label}: two sessions at once`, concurrent, tag && { ...tag, replay: 'concurrent' });
  if (assert) check(concurrent, 'concurrent');
  return { ordered, restarted, concurrent };
}

// ---- claude-cch: the per-request value and explain ----

// Every two consecutive requests with tools of one session (each turn's requests, interactive
// and one-shot), as recorded from the real Claude Code 2.1.117: the block names that version, the
// cch values differ, and `strata explain` on the pair reports no lost cached token and B
// extending A.
function checkCch(args, sessions, work) {
  let pairs = 0;
  for (const session of sessions) {
    const recs = session.records.filter((r) => r.api === 'anthropic-messages' && r.request.tools?.length);
    const block = (r) => r.request.system?.[0]?.text ?? '';
    for (const r of recs) {
      if (!/^x-anthropic-billing-header: cc_version=2\.1\.117\./.test(block(r)))
        return fail(`claude-cch ${session.label}: the billing block is not 2.1.117's: ${block(r).slice(0, 120)}`);
    }
    const cch = recs.map((r) => block(r).match(/cch=([0-9a-f]{5});/)?.[1]);
    log(`claude-cch ${session.label}: cch values ${cch.join(', ')}`);
    if (cch.some((c) => !c)) return fail(`claude-cch ${session.label}: a request has no cch in its billing block`);
    for (let k = 1; k < recs.length; ++k) {
      if (cch[k - 1] === cch[k]) fail(`claude-cch ${session.label}: requests ${k - 1} and ${k} carry the same cch`);
      const a = path.join(work, `cch-${session.label}-${k - 1}.json`), b = path.join(work, `cch-${session.label}-${k}.json`);
      fs.writeFileSync(a, JSON.stringify(recs[k - 1].request));
      fs.writeFileSync(b, JSON.stringify(recs[k].request));
      const r = spawnSync(args.strata, ['explain', a, b, '--json', '--vocab-dir', args.vocab_dir, '--tokenizer', 'llama-spm'],
        { encoding: 'utf8', timeout: 120_000 });
      if (r.status !== 0) { fail(`strata explain ${a} ${b} exited ${r.status}: ${r.stderr}`); continue; }
      const e = JSON.parse(r.stdout);
      ++pairs;
      log(`claude-cch ${session.label} ${k - 1}->${k}: strata explain: lost_cached_tokens ${e.lost_cached_tokens}, prompt_extends ${e.prompt_extends}, outside_prompt ${JSON.stringify(e.outside_prompt)}`);
      if (e.lost_cached_tokens !== 0) fail(`claude-cch ${session.label} ${k - 1}->${k}: strata explain reports ${e.lost_cached_tokens} lost cached tokens`);
      if (e.prompt_extends !== true) fail(`claude-cch ${session.label} ${k - 1}->${k}: strata explain says B does not extend A`);
    }
  }
  // Each session's turn runs a tool call: two requests with tools per turn at least.
  if (pairs < sessions.length) fail(`claude-cch: ${pairs} consecutive request pairs explained, at least ${sessions.length} expected`);
  return true;
}

// ---- strata usage on the harness's own logs ----

// The token figures of each scripted_upstream.mjs answer, by the API of the request (as strata
// usage counts them: input is the whole prompt, uncached + cache read + cache write), written
// from what the upstream sends (its USAGE):
//   Anthropic Messages: input_tokens 10 (uncached) + cache read 4 + cache write 2 = 16;
//   Responses: input_tokens 14, which include its 4 cached tokens;
//   Chat Completions: prompt_tokens 10, none cached.
const SERVED = {
  'anthropic-messages': { input_tokens: 16, cache_read_tokens: 4, cache_write_tokens: 2, output_tokens: 5 },
  'openai-responses': { input_tokens: 14, cache_read_tokens: 4, cache_write_tokens: 0, output_tokens: 5 },
  'openai-chat': { input_tokens: 10, cache_read_tokens: 0, cache_write_tokens: 0, output_tokens: 5 },
};

// Per harness: where it keeps its logs under the capture's home (`home`, the HOME every session
// of the capture had), the `strata usage` flags that point there, and the session source name
// the report gives them. Which requests a session logs: the ones carrying tools, the agent's own
// steps (each answer the harness logs with its usage). A request without tools is a side request
// the harness keeps out of the session's log: the Codex TUI's title request (one per interactive
// session: 5 recorded, 4 in the rollout), opencode's title request (a title is no message);
// Claude Code logs only its main loop's answers in <session>.jsonl (a title or quota request on
// its small fast model is not there; with CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC, claudeEnv,
// 2.1.328 sends none here).
const USAGE_OF = {
  // Claude Code: HOME only (no CLAUDE_CONFIG_DIR), so <home>/.claude/projects/<project>/<session
  // id>.jsonl, strata's default under --home; every run, `claude -p` too, is a session file.
  claude: { source: 'claude-code', dir: (home) => path.join(home, '.claude', 'projects'), flags: (home) => ['--home', home] },
  // Codex CLI: CODEX_HOME=<home>/codex (harnessSpec), not under HOME's .codex: its rollouts
  // (sessions/YYYY/MM/DD/rollout-*.jsonl, one per session, `codex exec` too) named by the flag.
  codex: { source: 'codex', dir: (home) => path.join(home, 'codex', 'sessions'), flags: (home) => ['--codex-sessions', path.join(home, 'codex', 'sessions')] },
  // opencode: XDG_DATA_HOME=<home>/.local/share (harnessSpec), strata's default under --home: its
  // SQLite store <home>/.local/share/opencode/opencode.db.
  opencode: { source: 'opencode', dir: (home) => path.join(home, '.local', 'share', 'opencode'), flags: (home) => ['--home', home], expect: 'opencode.db' },
};
// Claude Code 2.1.117 (another version people still run) logs where 2.1.328 does.
USAGE_OF['claude-cch'] = USAGE_OF.claude;

// Every file under `dir`: { relative path: bytes }.
function filesUnder(dir) {
  const out = {};
  for (const e of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const p = path.join(e.parentPath ?? e.path, e.name);
    out[path.relative(dir, p)] = fs.readFileSync(p);
  }
  return out;
}

// `strata usage --json` on the logs the capture's harness wrote (USAGE_OF), with an environment
// that names none of the harnesses' variables (no CLAUDE_CONFIG_DIR, CODEX_HOME, XDG_DATA_HOME):
// one session of the harness per captured session, in the order they ran (first_time), each with
// one request per recorded request carrying tools and, per request, the tokens the upstream
// served (SERVED). The scan leaves every file of the log directory as it was, byte for byte, and
// adds none.
function checkUsage(args, harness, sessions, work) {
  const home = path.join(work, 'home');
  const spec = USAGE_OF[harness];
  const dir = spec.dir(home);
  if (!fs.existsSync(dir)) return fail(`no ${dir}: ${harness} wrote no log there`);
  const before = filesUnder(dir);
  const names = Object.keys(before).sort();
  log(`usage: ${harness} logs under ${dir}: ${names.join(', ')}`);
  if (spec.expect && !names.includes(spec.expect)) return fail(`no ${spec.expect} in ${dir}: ${names.join(', ')}`);
  const env = { PATH: process.env.PATH, LANG: 'C.UTF-8' };
  const r = spawnSync(args.strata, ['usage', '--json', ...spec.flags(home)], { encoding: 'utf8', env, timeout: 60_000 });
  if (r.status !== 0) return fail(`strata usage exited ${r.status}: ${r.stderr}`);
  fs.writeFileSync(path.join(work, 'usage.json'), r.stdout);
  const report = JSON.parse(r.stdout);
  const after = filesUnder(dir);
  if (Object.keys(after).sort().join(',') !== names.join(',')) fail(`strata usage changed the files under ${dir}: ${names.join(',')} -> ${Object.keys(after).sort().join(',')}`);
  for (const n of names) if (after[n] && !after[n].equals(before[n])) fail(`strata usage changed ${path.join(dir, n)}`);
  if ((report.skipped_files ?? []).length) fail(`strata usage skipped ${JSON.stringify(report.skipped_files)}`);
  // The scripted upstream's model id is in no price table: exactly that is said, once; nothing else.
  const priced = (w) => w.startsWith("model 'strata-test' is not in the price table");
  const warnings = report.warnings ?? [];
  if (warnings.filter(priced).length !== 1) fail(`strata usage should say once that 'strata-test' has no list price: ${warnings.join('; ')}`);
  const other = warnings.filter((w) => !priced(w));
  if (other.length) fail(`strata usage warned: ${other.join('; ')}`);
  const others = report.sessions.filter((x) => x.source !== spec.source);
  if (others.length) fail(`strata usage reports sessions of other sources: ${others.map((x) => `${x.source} ${x.id}`).join(', ')}`);
  const got = report.sessions.filter((x) => x.source === spec.source).sort((a, b) => (a.first_time < b.first_time ? -1 : 1));
  log(`usage: ${got.length} ${spec.source} sessions: ${got.map((x) => `${x.id} requests=${x.totals.requests}`).join(', ')}`);
  if (got.length !== sessions.length) return fail(`strata usage reports ${got.length} ${spec.source} sessions, ${sessions.length} ran`);
  let requests = 0;
  for (const [k, session] of sessions.entries()) {
    const logged = session.records.filter((x) => x.request.tools?.length);
    const steps = logged.length;
    requests += steps;
    const t = got[k].totals;
    const want = { requests: steps, input_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0, output_tokens: 0 };
    for (const x of logged) for (const key of Object.keys(SERVED[x.api])) want[key] += SERVED[x.api][key];
    for (const [key, v] of Object.entries(want)) {
      if (t[key] !== v) fail(`usage ${session.label} (${got[k].id}): ${key} ${t[key]}, served ${v}`);
    }
    log(`usage ${session.label} (${got[k].id}): requests ${t.requests} (served ${steps} with tools, ${session.records.length} in all), input ${t.input_tokens}, cache read ${t.cache_read_tokens}, cache write ${t.cache_write_tokens}, output ${t.output_tokens}`);
  }
  if (requests < 2 * sessions.length) fail(`only ${requests} agent requests in ${sessions.length} sessions: a tool call per turn expected`);
  return true;
}

// ---- two harnesses at once on one server ----

// The recorded sessions of two harnesses (files written by --save) sent to one strata serve at
// once: each harness's sessions one after another, the two harnesses side by side. Every request
// reuses >= 95% of what it shares with any request answered before it (of either harness), and
// the first request of each harness's second one-shot session restores >= 95% of its system and
// tools part although the other harness's requests ran in between: neither evicts the other's
// prefix.
async function replayMixed(args, files, work) {
  const harnesses = files.map((f) => JSON.parse(fs.readFileSync(f, 'utf8')));
  for (const h of harnesses) for (const x of h.sessions) x.label = `${h.harness}/${x.label}`;
  const s = await startServe(args, work, 'mixed');
  let rows = [];
  try {
    const done = [];
    rows = (await Promise.all(harnesses.map((h) => sendSessions(s.port, h.sessions, done)))).flat();
  } finally { await stop(s.child); }
  for (const h of harnesses) {
    const others = harnesses.filter((o) => o !== h).map((o) => o.harness).join(',');
    table(`${h.harness} beside ${others}`, rows.filter((r) => r.label.startsWith(`${h.harness}/`)),
      { harness: h.harness, version: h.version ?? '?', replay: `beside-${others}` });
  }
  check(rows, 'two harnesses at once');
  for (const h of harnesses) {
    const second = h.sessions.filter((x) => x.label.includes('/oneshot'))[1];
    const head = second && rows.find((r) => r.label === second.label && r.i === 0);
    if (!head) { fail(`${h.harness}: no second one-shot session recorded`); continue; }
    if (head.cached < Math.floor(REUSE * head.systemTools))
      fail(`${second.label}'s first request restored ${head.cached} of its ${head.systemTools} system and tools tokens`);
  }
}

async function main() {
  const args = parseArgs(process.argv);
  const HARNESSES = ['claude', 'claude-cch', 'codex', 'opencode', 'pi', 'mixed'];
  if (!HARNESSES.includes(args.harness)) { console.error(`--harness ${HARNESSES.join('|')}`); process.exit(2); }
  if (args.usage && !USAGE_OF[args.harness]) { console.error(`--usage is for --harness ${Object.keys(USAGE_OF).join('|')}`); process.exit(2); }
  for (const k of args.usage ? ['strata'] : ['strata', 'strata_local', 'model']) if (!args[k] || !fs.existsSync(args[k])) skip(`--${k} not found: ${args[k]}`);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), `strata-sessions-${args.harness}-`));
  log(`work dir ${work}`);
  if (args.harness === 'mixed') {
    const files = (args.from ?? '').split(',').filter(Boolean);
    for (const f of files) if (!fs.existsSync(f)) skip(`recorded sessions ${f} not found (the realclient.sessions test of that harness writes them)`);
    if (files.length < 2) { console.error('--harness mixed needs --from A.json,B.json'); process.exit(2); }
    await replayMixed(args, files, work);
  } else {
    if (spawnSync('tmux', ['-V']).status !== 0) skip('tmux not found (scripts/setup.sh installs it)');
    const { sessions, version } = await capture(args, args.harness, work);
    // Kept for the test of two harnesses at once (realclient.sessions.mixed).
    if (args.save) {
      fs.mkdirSync(path.dirname(args.save), { recursive: true });
      fs.writeFileSync(`${args.save}.tmp`, JSON.stringify({ harness: args.harness, version, sessions }));
      fs.renameSync(`${args.save}.tmp`, args.save);
    }
    // --usage reads the harness's logs only (no llama.cpp, no vocabulary for explain).
    if (args.harness === 'claude-cch' && !args.usage) checkCch(args, sessions, work);
    if (args.usage) checkUsage(args, args.harness, sessions, work);
    else await replay(args, sessions, work, 'after', [], true, { harness: args.harness, version });
    if (args.compare_keep) await replay(args, sessions, work, 'before-keep-client-text', ['--keep-client-text'], false);
  }
  if (!failed && !args.keep) fs.rmSync(work, { recursive: true, force: true });
  else log(`kept ${work}`);
  log(failed ? 'FAIL' : 'PASS');
  process.exitCode = failed ? 1 : 0;
}

main().catch((e) => { console.error(`[sessions] FAIL: ${e.stack || e}`); process.exit(1); });
