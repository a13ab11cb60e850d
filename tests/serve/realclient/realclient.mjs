// realclient.mjs: drives a real agent harness (Claude Code 2.1.328, Codex CLI or opencode, the
// pinned npm packages of scripts/setup-clients.sh; Claude Code 2.1.117, which sends a cch per
// request, and Pi from their own sets of that script) through a one-shot run against
// `strata serve` on the generated test model, twice, with the server restarted between the runs
// on the same checkpoint store; the second run must restore the shared prefix from disk.
//
//   node realclient.mjs --harness claude|claude-cch|codex|opencode|pi --strata STRATA --model GGUF
//                       --setup-clients scripts/setup-clients.sh [--server strata|llama]
//                       [--llama-server BIN] [--keep]
//
// Between the harness and the server sits a recording pass-through (node's http module on a port
// of its own): it keeps every request the harness sends (method, path, JSON body) and the server's
// answer; the prompt is forwarded unchanged. A generated model answers gibberish and would talk
// until the context is full: every harness keeps its own budget (Claude Code's 32000, Pi's and
// opencode's configured 4096, none from Codex CLI) and the server's output cap ends each answer
// (`strata serve -n 8`, docs/serve.md "Output cap"), as a user sets it: asserted, the request's
// budget above the cap (or absent) and the answer at most the cap long. (Without serverCap the
// pass-through lowers the budget itself, for a server run without -n; Codex CLI then fails its
// run: a stream cut by the request's own max_output_tokens ends with response.incomplete.) A run
// "completes" when the harness exits 0 after the server answered. Asserted per run: the exit
// status, that the harness's main request reached the expected endpoint with the scratch
// project's instruction file in its prompt and was answered 200, and that the answer's usage is
// what /metrics counted; after the second run (a new server process on the first run's store):
// its first model request has >= 90% of its prompt restored from the store, in /metrics and in
// the answer's cached tokens.
//
// Everything is offline: HOME, CODEX_HOME and XDG dirs are scratch directories, the harnesses talk
// only to 127.0.0.1. Exit 0 = pass, 1 = fail, 77 = skipped (node, the client cache or the
// model missing), which ctest maps to SKIP via SKIP_RETURN_CODE.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const SKIP = 77;
const RUN_TIMEOUT_MS = 240_000;   // one harness run
const START_TIMEOUT_MS = 60_000;  // server start until /health answers 200
const GENERATION_CAP = 8;         // tokens the server may generate per request
const MODEL_ALIAS = 'strata-test';
const MARKER = 'STRATA-REALCLIENT-MARKER-7731';

function parseArgs(argv) {
  const args = { server: 'strata', keep: false };
  for (let i = 2; i < argv.length; ++i) {
    const a = argv[i];
    if (a === '--keep') args.keep = true;
    else if (a.startsWith('--')) args[a.slice(2).replace(/-/g, '_')] = argv[++i];
  }
  return args;
}

function log(...parts) { console.log('[realclient]', ...parts); }
function fail(message) { console.error(`[realclient] FAIL: ${message}`); process.exitCode = 1; return false; }
function skip(message) { console.log(`[realclient] SKIP: ${message}`); process.exit(SKIP); }

async function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

// The node_modules directory of the pinned clients (setup-clients.sh prints it last), or a skip.
function clientModules(setupScript, set) {
  const r = spawnSync('bash', [setupScript, ...(set ? [set] : [])], { encoding: 'utf8' });
  const dir = (r.stdout || '').trim().split('\n').pop();
  if (r.status !== 0 || !dir || !fs.existsSync(dir)) skip(`pinned clients unavailable (${setupScript}): ${(r.stderr || '').trim().split('\n').pop()}`);
  return dir;
}

// ---- the server under test ----

async function waitHealthy(port, child) {
  const until = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode} before answering /health`);
    try {
      const r = await fetch(`http://127.0.0.1:${port}/health`);
      if (r.status === 200) return;
    } catch { /* not listening yet */ }
    await new Promise((res) => setTimeout(res, 200));
  }
  throw new Error(`server did not answer /health within ${START_TIMEOUT_MS} ms`);
}

async function startServer(args, work, port, logName, serverCap) {
  const out = fs.openSync(path.join(work, logName), 'w');
  let cmd, argv;
  if (args.server === 'llama') {
    cmd = args.llama_server;
    argv = ['-m', args.model, '--host', '127.0.0.1', '--port', String(port), '-c', '32768', '-np', '1',
      '--jinja', '--alias', MODEL_ALIAS, '--metrics', '-t', '2', '--slot-save-path', path.join(work, 'store')];
  } else {
    cmd = args.strata;
    argv = ['serve', '--model', args.model, '--host', '127.0.0.1', '--port', String(port), '--ctx', '32768',
      '--parallel', '1', '--store', path.join(work, 'store'), '--alias', MODEL_ALIAS,
      ...(serverCap ? ['-n', String(GENERATION_CAP)] : [])];
  }
  const child = spawn(cmd, argv, { stdio: ['ignore', out, out] });
  await waitHealthy(port, child);
  return child;
}

async function stopServer(child) {
  if (!child || child.exitCode !== null) return;
  const done = new Promise((res) => child.once('exit', res));
  child.kill('SIGTERM');
  const t = setTimeout(() => child.kill('SIGKILL'), 20_000);
  await done;
  clearTimeout(t);
}

// Prometheus text to { name: value } (labels kept in the name; summed families by bare name too).
function parseMetrics(text) {
  const m = {};
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const sp = line.lastIndexOf(' ');
    const key = line.slice(0, sp), value = Number(line.slice(sp + 1));
    m[key] = value;
    const bare = key.replace(/\{.*\}$/, '');
    if (bare !== key && !bare.endsWith('_bucket')) m[bare] = (m[bare] ?? 0) + value;
  }
  return m;
}

async function metrics(port) {
  const r = await fetch(`http://127.0.0.1:${port}/metrics`);
  return parseMetrics(await r.text());
}

// The first metric whose name ends with one of `suffixes` (the server's names, with or without
// its prefix), or undefined.
function metric(m, ...suffixes) {
  for (const s of suffixes) {
    for (const [k, v] of Object.entries(m)) if (!k.includes('{') && (k === s || k.endsWith(`_${s}`))) return v;
  }
  return undefined;
}

// ---- the recording pass-through ----

const BUDGET_MEMBERS = ['max_tokens', 'max_output_tokens', 'max_completion_tokens'];
const STOP_SEQUENCES = ['a', 'e', 'i', 'o', 'u'];

function capBudget(body, apiPath, serverCap) {
  let changed = false;
  for (const k of serverCap ? [] : BUDGET_MEMBERS) {
    if (typeof body[k] === 'number' && body[k] > GENERATION_CAP) { body[k] = GENERATION_CAP; changed = true; }
  }
  // A harness that sends no budget gets the API's own member.
  if (!serverCap && !BUDGET_MEMBERS.some((k) => k in body)) {
    body[apiPath.startsWith('/v1/responses') ? 'max_output_tokens' : 'max_tokens'] = GENERATION_CAP;
    changed = true;
  }
  // Anthropic with the budget lowered here: Claude Code treats stop_reason "max_tokens" (its own
  // limit reached) as a cut-off answer and asks the model to resume (three times, then it exits
  // 1); a stop sequence ends the answer as the model would (stop_reason "stop_sequence"), after
  // the first few characters of gibberish. Under the server's cap nothing is added: the server
  // reports an answer its -n cut as "end_turn".
  if (!serverCap && apiPath.startsWith('/v1/messages') && !apiPath.includes('count_tokens')) {
    body.stop_sequences = [...(body.stop_sequences ?? []), ...STOP_SEQUENCES];
    changed = true;
  }
  // Anthropic: a thinking budget must stay below max_tokens; the model has no thinking anyway.
  if (body.thinking && typeof body.thinking === 'object' && body.thinking.type === 'enabled') {
    delete body.thinking; changed = true;
  }
  return changed;
}

function startRecorder(upstreamPort, records, serverCap) {
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      let raw = Buffer.concat(chunks);
      const rec = { method: req.method, url: req.url, headers: req.headers, body: null, status: 0, response: '' };
      records.push(rec);
      if (raw.length && (req.headers['content-type'] || '').includes('json')) {
        try {
          rec.body = JSON.parse(raw.toString('utf8'));
          const forwarded = structuredClone(rec.body);
          if (req.method === 'POST' && capBudget(forwarded, req.url, serverCap)) raw = Buffer.from(JSON.stringify(forwarded));
        } catch { rec.body = raw.toString('utf8'); }
      }
      const headers = { ...req.headers, host: `127.0.0.1:${upstreamPort}`, 'content-length': String(raw.length) };
      delete headers['accept-encoding'];
      const up = http.request({ host: '127.0.0.1', port: upstreamPort, method: req.method, path: req.url, headers }, (ur) => {
        rec.status = ur.statusCode;
        res.writeHead(ur.statusCode, ur.headers);
        ur.on('data', (c) => { rec.response += c.toString('utf8'); res.write(c); });
        ur.on('end', () => res.end());
      });
      up.on('error', (e) => { rec.status = 502; rec.response = String(e); res.writeHead(502); res.end(String(e)); });
      up.end(raw);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

// ---- the harnesses ----

function projectFiles(project) {
  fs.mkdirSync(project, { recursive: true });
  const agents = [
    '# Project instructions',
    '',
    `Marker for the test: ${MARKER}.`,
    '',
    'This is a scratch project of the strata real-client test. Answer in one short sentence.',
    'Do not run tools; there is nothing to build or test here.',
    '',
  ].join('\n');
  fs.writeFileSync(path.join(project, 'AGENTS.md'), agents);
  fs.writeFileSync(path.join(project, 'CLAUDE.md'), agents);
  fs.writeFileSync(path.join(project, 'hello.txt'), 'hello\n');
}

function baseEnv(home) {
  const env = {
    PATH: process.env.PATH, HOME: home, USER: 'strata', LANG: 'C.UTF-8', TERM: 'dumb', NO_COLOR: '1',
    XDG_CONFIG_HOME: path.join(home, '.config'), XDG_DATA_HOME: path.join(home, '.local/share'),
    XDG_CACHE_HOME: path.join(home, '.cache'), XDG_STATE_HOME: path.join(home, '.local/state'),
    TMPDIR: path.join(home, 'tmp'),
  };
  for (const d of [env.XDG_CONFIG_HOME, env.XDG_DATA_HOME, env.XDG_CACHE_HOME, env.XDG_STATE_HOME, env.TMPDIR]) fs.mkdirSync(d, { recursive: true });
  return env;
}

const PROMPT = 'Say hello in one short sentence.';

// Claude Code (either version) pointed at `port`.
function claudeSetup(modules, home, project, port) {
  const env = {
    ...baseEnv(home),
    ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}`, ANTHROPIC_API_KEY: 'x',
    ANTHROPIC_MODEL: MODEL_ALIAS, ANTHROPIC_SMALL_FAST_MODEL: MODEL_ALIAS,
    ANTHROPIC_DEFAULT_HAIKU_MODEL: MODEL_ALIAS, ANTHROPIC_DEFAULT_SONNET_MODEL: MODEL_ALIAS,
    ANTHROPIC_DEFAULT_OPUS_MODEL: MODEL_ALIAS,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_TELEMETRY: '1', DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1', CLAUDE_CODE_MAX_RETRIES: '0', API_TIMEOUT_MS: '200000',
  };
  const bin = path.join(modules, '.bin', 'claude');
  return { cmd: bin, argv: ['-p', PROMPT, '--output-format', 'json', '--allowedTools', 'Bash'], env };
}

// Per harness: the endpoint of its model requests, the setup-clients.sh set it comes from, whether
// the server's output cap ends its answers (serverCap) rather than the pass-through's lowered
// budget, and its command line.
const HARNESSES = {
  claude: { endpoint: '/v1/messages', serverCap: true, setup: claudeSetup },
  // Claude Code 2.1.117 keeps its max_tokens (32000) and the server runs with -n: the answer the
  // cap cuts comes back with stop_reason "end_turn" (docs/serve.md "Output cap"), and the run
  // ends normally. (With "max_tokens" it would ask to resume three times, then exit 1 with "API
  // Error: Claude's response exceeded the 32000 output token maximum".)
  'claude-cch': { endpoint: '/v1/messages', set: 'claude-code-cch', serverCap: true, setup: claudeSetup },
  pi: {
    endpoint: '/v1/chat/completions',
    set: 'pi',
    serverCap: true,
    setup(modules, home, project, port) {
      // docs/serve-clients.md: a custom provider with a realistic budget (maxTokens becomes the
      // request's max_completion_tokens); the server's -n ends the answer before it.
      const agentDir = path.join(home, '.pi', 'agent');
      fs.mkdirSync(agentDir, { recursive: true });
      fs.writeFileSync(path.join(agentDir, 'models.json'), JSON.stringify({
        providers: { local: { baseUrl: `http://127.0.0.1:${port}/v1`, api: 'openai-completions', apiKey: 'x',
          compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
          models: [{ id: MODEL_ALIAS, contextWindow: 32768, maxTokens: 4096 }] } },
      }));
      const env = { ...baseEnv(home), PI_CODING_AGENT_DIR: agentDir, PI_OFFLINE: '1', PI_TELEMETRY: '0' };
      return { cmd: path.join(modules, '.bin', 'pi'), argv: ['--provider', 'local', '--model', MODEL_ALIAS, '-p', PROMPT], env };
    },
  },
  codex: {
    endpoint: '/v1/responses',
    serverCap: true,
    setup(modules, home, project, port) {
      const codexHome = path.join(home, 'codex');
      fs.mkdirSync(codexHome, { recursive: true });
      fs.writeFileSync(path.join(codexHome, 'config.toml'), [
        `model = "${MODEL_ALIAS}"`,
        'model_provider = "local"',
        'approval_policy = "never"',
        'sandbox_mode = "read-only"',
        '',
        '[model_providers.local]',
        'name = "strata"',
        `base_url = "http://127.0.0.1:${port}/v1"`,
        'wire_api = "responses"',
        'env_key = "LOCAL_API_KEY"',
        'request_max_retries = 0',
        'stream_max_retries = 0',
        '',
      ].join('\n'));
      const env = { ...baseEnv(home), CODEX_HOME: codexHome, LOCAL_API_KEY: 'x' };
      const bin = path.join(modules, '.bin', 'codex');
      return { cmd: bin, argv: ['exec', '--skip-git-repo-check', PROMPT], env };
    },
  },
  opencode: {
    endpoint: '/v1/chat/completions',
    serverCap: true,
    setup(modules, home, project, port) {
      fs.writeFileSync(path.join(project, 'opencode.json'), JSON.stringify({
        $schema: 'https://opencode.ai/config.json',
        autoupdate: false,
        share: 'disabled',
        model: `local/${MODEL_ALIAS}`,
        small_model: `local/${MODEL_ALIAS}`,
        provider: {
          local: {
            npm: '@ai-sdk/openai-compatible',
            name: 'strata',
            options: { baseURL: `http://127.0.0.1:${port}/v1`, apiKey: 'x' },
            models: { [MODEL_ALIAS]: { name: MODEL_ALIAS, limit: { context: 32768, output: 4096 } } },
          },
        },
      }, null, 2));
      const env = {
        ...baseEnv(home), OPENCODE_DISABLE_MODELS_FETCH: '1', OPENCODE_DISABLE_AUTOUPDATE: '1',
        OPENCODE_DISABLE_LSP_DOWNLOAD: '1', OPENCODE_DISABLE_SHARE: '1', OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
      };
      const bin = path.join(modules, '.bin', 'opencode');
      return { cmd: bin, argv: ['run', PROMPT], env };
    },
  },
};

function runHarness(spec, cwd, outFile) {
  return new Promise((resolve) => {
    const out = fs.openSync(outFile, 'w');
    const child = spawn(spec.cmd, spec.argv, { cwd, env: spec.env, stdio: ['ignore', out, out], detached: true });
    const started = Date.now();
    const timer = setTimeout(() => { try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ } }, RUN_TIMEOUT_MS);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      try { process.kill(-child.pid, 'SIGKILL'); } catch { /* the group is gone */ }
      resolve({ code, signal, ms: Date.now() - started, output: fs.readFileSync(outFile, 'utf8') });
    });
  });
}

// ---- what the answers said ----

// The usage an answer reported (SSE or JSON): prompt tokens and the cached part.
function answerUsage(rec) {
  let usage = { prompt: 0, cached: 0 };
  const take = (obj) => {
    if (!obj || typeof obj !== 'object') return;
    const u = obj.usage ?? obj.message?.usage ?? obj.response?.usage;
    if (!u) return;
    if ('prompt_tokens' in u) usage = { prompt: u.prompt_tokens, cached: u.prompt_tokens_details?.cached_tokens ?? 0 };
    else if ('input_tokens_details' in u || (rec.url.startsWith('/v1/responses') && 'input_tokens' in u)) usage = { prompt: u.input_tokens, cached: u.input_tokens_details?.cached_tokens ?? 0 };
    else if ('input_tokens' in u) {
      const read = u.cache_read_input_tokens ?? 0, created = u.cache_creation_input_tokens ?? 0;
      usage = { prompt: u.input_tokens + read + created, cached: read };
    }
  };
  const text = rec.response;
  if (text.trimStart().startsWith('{')) { try { take(JSON.parse(text)); } catch { /* not JSON */ } return usage; }
  for (const line of text.split('\n')) {
    if (!line.startsWith('data:')) continue;
    try { take(JSON.parse(line.slice(5))); } catch { /* [DONE] or partial */ }
  }
  return usage;
}

function summarise(records) {
  return records.map((r) => {
    const b = r.body && typeof r.body === 'object' ? r.body : {};
    const u = answerUsage(r);
    return `${r.method} ${r.url} -> ${r.status} model=${b.model ?? '-'} stream=${b.stream ?? '-'} ` +
      `members=[${Object.keys(b).join(',')}] prompt=${u.prompt} cached=${u.cached}`;
  }).join('\n  ');
}

function mainRequests(records, endpoint) {
  return records.filter((r) => r.method === 'POST' && r.url.split('?')[0] === endpoint &&
    JSON.stringify(r.body ?? '').includes(MARKER));
}

async function oneRun(args, harness, modules, work, store, label) {
  const serverPort = await freePort();
  const { serverCap } = HARNESSES[harness];
  const server = await startServer(args, work, serverPort, `server-${label}.log`, serverCap);
  const records = [];
  const recorder = await startRecorder(serverPort, records, serverCap);
  const proxyPort = recorder.address().port;
  try {
    const spec = HARNESSES[harness].setup(modules, path.join(work, 'home'), path.join(work, 'project'), proxyPort);
    const result = await runHarness(spec, path.join(work, 'project'), path.join(work, `${harness}-${label}.out`));
    const m = args.server === 'strata' ? await metrics(serverPort) : {};
    fs.writeFileSync(path.join(work, `requests-${label}.json`), JSON.stringify(records, null, 1));
    return { result, records, metrics: m };
  } finally {
    recorder.close();
    await stopServer(server);
  }
}

// The generated tokens an answer (SSE or JSON) reported: its last output_tokens or
// completion_tokens, or undefined.
function outputTokens(rec) {
  let out;
  const take = (obj) => {
    const u = obj?.usage ?? obj?.message?.usage ?? obj?.response?.usage;
    if (u && typeof u === 'object') out = u.output_tokens ?? u.completion_tokens ?? out;
  };
  const text = rec.response;
  if (text.trimStart().startsWith('{')) { try { take(JSON.parse(text)); } catch { /* not JSON */ } return out; }
  for (const line of text.split('\n')) {
    if (!line.startsWith('data:')) continue;
    try { take(JSON.parse(line.slice(5))); } catch { /* [DONE] or partial */ }
  }
  return out;
}

function checkRun(run, harness, label) {
  const { result, records } = run;
  log(`${label}: exit ${result.code}${result.signal ? ` (${result.signal})` : ''} after ${result.ms} ms; requests:\n  ${summarise(records)}`);
  let ok = true;
  if (result.code !== 0) ok = fail(`${harness} ${label} exited ${result.code ?? result.signal}; its output:\n${result.output.slice(-3000)}`);
  const main = mainRequests(records, HARNESSES[harness].endpoint);
  if (main.length === 0) ok = fail(`${label}: no ${HARNESSES[harness].endpoint} request carried the project's AGENTS.md/CLAUDE.md`);
  for (const r of main) if (r.status !== 200) ok = fail(`${label}: ${r.url} answered ${r.status}: ${r.response.slice(0, 500)}`);
  // The server's cap, not the harness's budget, bounds the answers: each main request asked for
  // more than the cap or sent no budget at all (Codex CLI: -1 here), and each answer is at most
  // the cap long.
  if (HARNESSES[harness].serverCap) {
    for (const r of main) {
      const budget = Math.max(...BUDGET_MEMBERS.map((k) => (typeof r.body[k] === 'number' ? r.body[k] : -1)));
      const out = outputTokens(r);
      log(`${label}: ${r.url} budget ${budget}, answer ${out} tokens (server cap ${GENERATION_CAP})`);
      if (budget !== -1 && !(budget > GENERATION_CAP)) ok = fail(`${label}: the request's own budget ${budget} is not above the server's cap ${GENERATION_CAP}`);
      if (out === undefined || out > GENERATION_CAP) ok = fail(`${label}: the answer has ${out} tokens, the server's cap is ${GENERATION_CAP}`);
    }
  }
  return ok;
}

// Prompt tokens the server counted: reused (from a live sequence or the store), the part of those
// restored from checkpoint files, and prefilled; every prompt token is reused or prefilled.
function tokenCounts(m) {
  return {
    cached: metric(m, 'strata_prompt_tokens_cached_total'),
    restored: metric(m, 'strata_prompt_tokens_restored_total'),
    prefilled: metric(m, 'strata_prompt_tokens_prefilled_total'),
  };
}

async function main() {
  const args = parseArgs(process.argv);
  const harness = args.harness;
  if (!HARNESSES[harness]) { console.error(`--harness must be one of ${Object.keys(HARNESSES).join(', ')}`); process.exit(2); }
  if (!args.model || !fs.existsSync(args.model)) skip(`test model not found: ${args.model}`);
  if (args.server === 'strata' && (!args.strata || !fs.existsSync(args.strata))) skip(`strata binary not found: ${args.strata}`);
  const modules = clientModules(args.setup_clients, HARNESSES[harness].set);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), `strata-realclient-${harness}-`));
  log(`work dir ${work}`);
  projectFiles(path.join(work, 'project'));
  fs.mkdirSync(path.join(work, 'home'), { recursive: true });
  fs.mkdirSync(path.join(work, 'store'), { recursive: true });

  const first = await oneRun(args, harness, modules, work, 'store', 'run1');
  let ok = checkRun(first, harness, 'run1');
  const second = await oneRun(args, harness, modules, work, 'store', 'run2');
  ok = checkRun(second, harness, 'run2') && ok;

  if (args.server === 'strata') {
    for (const [label, run] of [['run1', first], ['run2', second]]) {
      const { cached, restored, prefilled } = tokenCounts(run.metrics);
      const answered = run.records.filter((r) => r.method === 'POST' && r.status === 200 && r.url.startsWith('/v1/') &&
        !r.url.includes('count_tokens')).map(answerUsage);
      const usagePrompt = answered.reduce((s, u) => s + u.prompt, 0), usageCached = answered.reduce((s, u) => s + u.cached, 0);
      log(`${label}: /metrics cached ${cached} (restored from the store ${restored}) prefilled ${prefilled}; ` +
        `answers' usage: prompt ${usagePrompt} cached ${usageCached}`);
      if ([cached, restored, prefilled].includes(undefined)) { ok = fail(`${label}: /metrics lacks the prompt-token counters`); continue; }
      if (cached + prefilled !== usagePrompt) ok = fail(`${label}: /metrics counted ${cached + prefilled} prompt tokens, the answers reported ${usagePrompt}`);
      if (cached !== usageCached) ok = fail(`${label}: /metrics reused ${cached} prompt tokens, the answers reported ${usageCached} cached`);
      // The second run's first model request starts a new server process, so every token of it
      // not prefilled came from the first run's checkpoint files: at least 90% of its prompt. A
      // later request of that run the first run never sent (the harness may add one, a title or a
      // summary) can reuse only what this run computed, so it is not held to the store.
      if (label === 'run2') {
        const head = answered[0];
        if (!head) ok = fail('run2 answered no model request');
        else if (head.cached < 0.9 * head.prompt || restored < head.cached)
          ok = fail(`run2's first request restored ${Math.min(restored, head.cached)} of ${head.prompt} prompt tokens from the store (< 90%)`);
      }
    }
  }
  if (ok && !args.keep) fs.rmSync(work, { recursive: true, force: true });
  else log(`kept ${work}`);
  log(ok ? 'PASS' : 'FAIL');
  process.exitCode = ok ? 0 : 1;
}

main().catch((e) => { console.error(`[realclient] FAIL: ${e.stack || e}`); process.exit(1); });
