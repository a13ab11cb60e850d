// serve_bench.mjs: `strata serve` side by side with llama.cpp's llama-server built from the same
// pinned source (bench/build-llama-server.sh), on the same generated model, context and threads,
// the same request sequences sent by one client (this script, streaming Chat Completions). Prints
// markdown tables.
//
//   node bench/serve_bench.mjs --strata build/tools/strata/strata --llama-server BIN --model GGUF
//        [--prefix-tokens 16384] [--sessions 5] [--turns 20] [--turn-tokens 200] [--threads 2]
//        [--workloads 1,2,3] [--arms strata,plain,slots] [--work DIR] [--template FILE]
//
// Both servers render with the same Jinja chat template (--template, passed as
// --chat-template-file to both; default: the pinned source's
// models/templates/Qwen-Qwen2.5-7B-Instruct.jinja, a ChatML template that renders tool
// definitions itself), so both render a request to the same prompt through common's
// common_chat_templates_apply and prefill the same tokens; the tables give each server's own
// prompt token count, and the script warns when they differ. (With the generated model's
// built-in ChatML, which does not mention tools, llama-server leaves the tool definitions out of
// the prompt, while strata serve adds them as a system text: docs/serve.md.)
//
// Workload 1, new sessions after a restart: five sessions of one agent, each a new conversation
// whose system message (identity, instructions and the project's AGENTS.md) and tools make a
// prefix of about --prefix-tokens tokens, the first user message different per session; the
// server is stopped and started between sessions (the store, or llama-server's slot files,
// persist). Arms: strata serve (--store), plain llama-server (a plain client: nothing to restore
// after a restart), and llama-server with the slot save/restore a wrapper script would do
// (POST /slots/0?action=restore before the session's request, ?action=save after it; the TTFT of
// that arm includes the restore call).
// Workload 2, one growing conversation: 20 turns on one server process, each turn the previous
// messages plus a fixed assistant reply and a new user message of about --turn-tokens tokens
// (the same bytes for both servers); per-turn TTFT, strata vs llama-server's in-process slot cache.
// Workload 3, restore vs read: the time strata reports for restoring the workload-1 prefix from
// its store (and llama-server's own slot-restore time) against reading the same file's bytes
// with read(2) from the page cache.
//
// TTFT is measured by the client: request sent to the first streamed chunk that carries generated
// text (delta.content / reasoning_content / tool_calls). Server start-up is not timed: each session
// starts once /health answers 200. Temperature 0, 4 tokens per answer.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { ALIAS, ServerProcess } from './serve_client.mjs';

function parseArgs(argv) {
  const a = {
    prefix_tokens: '16384', sessions: '5', turns: '20', turn_tokens: '200', threads: '2', workloads: '1,2,3',
  };
  for (let i = 2; i < argv.length; ++i) if (argv[i].startsWith('--')) a[argv[i].slice(2).replace(/-/g, '_')] = argv[++i];
  for (const k of ['prefix_tokens', 'sessions', 'turns', 'turn_tokens', 'threads']) a[k] = Number(a[k]);
  a.workloads = new Set(a.workloads.split(',').map(Number));
  if (a.arms) a.arms = new Set(a.arms.split(','));  // strata, plain (llama-server), slots
  return a;
}

const median = (v) => { const s = [...v].sort((x, y) => x - y); const n = s.length; return n === 0 ? NaN : n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2; };
const fmt = (x, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : '-');

// ---- servers ----

// llama-server or strata serve with one sequence, as workloads 1-3 start them.
class Server extends ServerProcess {
  constructor(kind, args, opts) {
    super(kind, (port) => {
      if (kind === 'strata') {
        const argv = ['serve', '--model', args.model, '--host', '127.0.0.1', '--port', String(port), '--ctx', String(opts.ctx),
          '--parallel', '1', '--store', opts.store, '--alias', ALIAS, '--threads', String(args.threads)];
        if (args.template) argv.push('--chat-template-file', args.template);
        return [args.strata, argv];
      }
      const argv = ['-m', args.model, '--host', '127.0.0.1', '--port', String(port), '-c', String(opts.ctx), '-np', '1',
        '-t', String(args.threads), '-tb', String(args.threads), '--jinja', '--alias', ALIAS, '--no-warmup'];
      if (opts.slots) argv.push('--slot-save-path', opts.slots);
      if (args.template) argv.push('--chat-template-file', args.template);
      return [args.llama_server, argv];
    });
  }

  chat(messages, tools) { return super.chat(messages, { tools, maxTokens: 4 }); }
}

// ---- the requests ----

// Real text for the prefix: llama.cpp's AGENTS.md and docs/*.md of the pinned source tree.
function corpus(src) {
  let text = fs.readFileSync(path.join(src, 'AGENTS.md'), 'utf8');
  const docs = fs.readdirSync(path.join(src, 'docs')).filter((f) => f.endsWith('.md')).sort();
  for (const d of docs) text += `\n\n${fs.readFileSync(path.join(src, 'docs', d), 'utf8')}`;
  return text;
}

const TOOLS = ['read_file', 'write_file', 'apply_patch', 'shell', 'list_dir', 'grep', 'glob', 'web_fetch', 'update_plan'].map((name) => ({
  type: 'function',
  function: {
    name,
    description: `The ${name.replace(/_/g, ' ')} tool of the agent: runs in the project directory and returns its output as text.`,
    parameters: {
      type: 'object',
      properties: { path: { type: 'string', description: 'a path relative to the project root' }, argument: { type: 'string', description: 'what to do' } },
      required: ['path'],
    },
  },
}));

function systemMessage(text) {
  return { role: 'system', content: `You are a coding agent working in a user's project.\n\n# Instructions\n\n${text}` };
}

// Finds the corpus cut whose rendered prompt (system + tools + a short user message) is about
// `target` tokens, with llama-server's own template and tokenizer (/apply-template, /tokenize).
async function calibrate(server, text, target) {
  const count = async (n) => {
    const messages = [systemMessage(text.slice(0, n)), { role: 'user', content: 'Session 1: hello.' }];
    const { prompt } = await server.post('/apply-template', { messages, tools: TOOLS });
    const { tokens } = await server.post('/tokenize', { content: prompt, add_special: true });
    return tokens.length;
  };
  let lo = 0, hi = text.length;
  if ((await count(hi)) < target) throw new Error(`the corpus has fewer than ${target} tokens`);
  while (hi - lo > 64) {
    const mid = (lo + hi) >> 1;
    if ((await count(mid)) <= target) lo = mid; else hi = mid;
  }
  const cut = text.lastIndexOf('\n', lo);
  const n = cut > 0 ? cut + 1 : lo;
  return { text: text.slice(0, n), tokens: await count(n) };
}

function userTurn(text, k, tokens) {
  // About `tokens` tokens of tool output per turn (4 characters a token is close for this corpus).
  const chars = tokens * 4;
  const start = (k * 7919 * 13) % Math.max(1, text.length - chars);
  return { role: 'user', content: `Turn ${k}: the output of the last command was:\n${text.slice(start, start + chars)}\nWhat next?` };
}

// ---- workloads ----

async function workload1(a, prefix, work) {
  const sessions = [];
  for (let s = 1; s <= a.sessions; ++s) {
    sessions.push([systemMessage(prefix.text), { role: 'user', content: `Session ${s}: where is the build documented?` }]);
  }
  const results = {};
  const arms = [
    ['strata serve (--store)', 'strata', { store: path.join(work, 'w1-store') }],
    ['llama-server, plain', 'llama', {}],
    ['llama-server + scripted /slots save/restore', 'llama', { slots: path.join(work, 'w1-slots') + '/', scripted: true }],
  ];
  for (const [label, kind, o] of arms) {
    if (kind === 'strata' && !a.strata) continue;
    if (a.arms && !a.arms.has(o.store ? 'strata' : o.slots ? 'slots' : 'plain')) continue;
    if (o.store) fs.mkdirSync(o.store, { recursive: true });
    if (o.slots) fs.mkdirSync(o.slots, { recursive: true });
    const ttfts = [], details = [];
    for (let s = 0; s < a.sessions; ++s) {
      const server = new Server(kind, a, { ctx: a.ctx, ...o });
      await server.start(path.join(work, `w1-${kind}${o.scripted ? '-slots' : ''}.log`));
      try {
        let restore_ms = 0;
        const t0 = performance.now();
        if (o.scripted && s > 0) {
          const r = await server.post('/slots/0?action=restore', { filename: 'agent.bin' });
          restore_ms = r.timings?.restore_ms ?? NaN;
        }
        const tRestore = performance.now() - t0;
        const r = await server.chat(sessions[s], TOOLS);
        if (o.scripted) await server.post('/slots/0?action=save', { filename: 'agent.bin' });
        // strata, a warm session: the same request again, now served from the live sequence (no
        // file restore), for workload 3's estimate restore = TTFT(disk) - TTFT(live).
        const live = kind === 'strata' && s > 0 ? (await server.chat(sessions[s], TOOLS)).ttft_ms : NaN;
        ttfts.push(tRestore + r.ttft_ms);
        details.push({ ttft: tRestore + r.ttft_ms, restore_ms, live_ttft: live, usage: r.usage, timings: r.timings });
        process.stderr.write(`w1 ${label} session ${s + 1}: ${fmt(tRestore + r.ttft_ms)} ms (cached ${r.usage?.prompt_tokens_details?.cached_tokens ?? '-'} / ${r.usage?.prompt_tokens ?? '-'})\n`);
      } finally {
        await server.stop();
      }
    }
    results[label] = { ttfts, details };
  }
  return results;
}

async function workload2(a, prefix, text, work) {
  const results = {};
  for (const [label, kind, o] of [['strata serve', 'strata', { store: path.join(work, 'w2-store') }], ['llama-server', 'llama', {}]]) {
    if (kind === 'strata' && !a.strata) continue;
    if (a.arms && !a.arms.has(kind === 'strata' ? 'strata' : 'plain')) continue;
    if (o.store) fs.mkdirSync(o.store, { recursive: true });
    const server = new Server(kind, a, { ctx: a.ctx, ...o });
    await server.start(path.join(work, `w2-${kind}.log`));
    const per = [];
    try {
      const messages = [systemMessage(prefix.text)];
      for (let k = 1; k <= a.turns; ++k) {
        messages.push(userTurn(text, k, a.turn_tokens));
        const r = await server.chat(messages, TOOLS);
        per.push({ ttft: r.ttft_ms, prompt: r.usage?.prompt_tokens, cached: r.usage?.prompt_tokens_details?.cached_tokens });
        process.stderr.write(`w2 ${label} turn ${k}: ${fmt(r.ttft_ms)} ms (cached ${per.at(-1).cached ?? '-'} / ${per.at(-1).prompt ?? '-'})\n`);
        messages.push({ role: 'assistant', content: 'Understood; continuing.' });
      }
    } finally {
      await server.stop();
    }
    results[label] = per;
  }
  return results;
}

// Milliseconds to read `file` with read(2) into a preallocated buffer, the file already in the
// page cache (one untimed read first); the median of 5.
function pageCacheReadMs(file) {
  const size = fs.statSync(file).size;
  const buf = Buffer.allocUnsafe(size);
  const once = () => {
    const t = performance.now();
    const fd = fs.openSync(file, 'r');
    let at = 0;
    while (at < size) { const n = fs.readSync(fd, buf, at, size - at, at); if (n <= 0) break; at += n; }
    fs.closeSync(fd);
    return performance.now() - t;
  };
  once();
  return median([once(), once(), once(), once(), once()]);
}

function largestFile(dir) {
  let best = null;
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (!best || fs.statSync(p).size > fs.statSync(best).size) best = p;
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return best;
}

// strata's request log lines (stderr of strata serve) as objects of their key=value fields, in
// order; numbers as numbers.
function strataLog(logFile) {
  if (!fs.existsSync(logFile)) return [];
  const out = [];
  for (const line of fs.readFileSync(logFile, 'utf8').split('\n')) {
    if (!line.startsWith('serve: api=')) continue;
    const o = {};
    for (const m of line.matchAll(/([a-z_]+)=(\S+)/g)) o[m[1]] = Number.isFinite(Number(m[2])) ? Number(m[2]) : m[2];
    out.push(o);
  }
  return out;
}

// The restores strata serve logged (requests with restore_ms > 0): total and parts.
function strataRestores(logFile) {
  return strataLog(logFile).filter((o) => o.restored > 0 && o.restore_ms > 0);
}

// ---- tables ----

function printWorkload1(r, prefix, a) {
  console.log(`\n### Workload 1: ${a.sessions} new sessions, server restarted between sessions (prefix ${prefix.tokens} tokens)\n`);
  // Prompt tokens as each server counts them: the servers render the same request with their own
  // template code, and the counts can differ.
  console.log(`| server | prompt tokens | ${Array.from({ length: a.sessions }, (_, i) => `session ${i + 1} ms`).join(' | ')} | median TTFT ms | vs plain |`);
  console.log(`|---|---|${'---|'.repeat(a.sessions)}---|---|`);
  const plain = median(r['llama-server, plain']?.ttfts ?? []);
  for (const [label, v] of Object.entries(r)) {
    const m = median(v.ttfts);
    console.log(`| ${label} | ${v.details[0]?.usage?.prompt_tokens ?? '-'} | ${v.ttfts.map((x) => fmt(x)).join(' | ')} | ${fmt(m)} | ${fmt(plain / m)}x |`);
  }
  const counts = new Set(Object.values(r).map((v) => v.details[0]?.usage?.prompt_tokens));
  if (counts.size > 1) console.log(`\nWARNING: the servers counted different prompt tokens (${[...counts].join(', ')}): not the same prompt`);
}

// strata serve's own request log lines of a workload: where each request's time went.
function printStrataPhases(logFile, title) {
  const rows = strataLog(logFile);
  if (rows.length === 0) return;
  console.log(`\n${title}\n`);
  const cols = ['prompt', 'cached', 'restored', 'prefilled', 'ttft_ms', 'render_ms', 'tokenize_ms', 'queue_ms', 'lookup_ms', 'restore_ms', 'prefill_ms', 'checkpoint_ms', 'sample_ms', 'store_ms'];
  console.log(`| request | ${cols.join(' | ')} |\n|---|${'---|'.repeat(cols.length)}`);
  rows.forEach((o, i) => console.log(`| ${i + 1} | ${cols.map((c) => o[c] ?? '-').join(' | ')} |`));
}

function printWorkload2(r, a) {
  const labels = Object.keys(r);
  console.log(`\n### Workload 2: one conversation of ${a.turns} turns growing from the prefix (+~${a.turn_tokens} tokens a turn)\n`);
  console.log(`| turn | prompt tokens | ${labels.map((l) => `${l} TTFT ms (cached)`).join(' | ')} |${labels.length === 2 ? ' ratio |' : ''}`);
  console.log(`|---|---|${'---|'.repeat(labels.length)}${labels.length === 2 ? '---|' : ''}`);
  for (let k = 0; k < a.turns; ++k) {
    const cells = labels.map((l) => `${fmt(r[l][k]?.ttft)} (${r[l][k]?.cached ?? '-'})`);
    const ratio = labels.length === 2 ? ` ${fmt(r[labels[0]][k]?.ttft / r[labels[1]][k]?.ttft, 2)}x |` : '';
    console.log(`| ${k + 1} | ${r[labels[0]][k]?.prompt ?? '-'} | ${cells.join(' | ')} |${ratio}`);
  }
  const warm = (l) => median(r[l].slice(1).map((x) => x.ttft));
  console.log(`| median of turns 2-${a.turns} | | ${labels.map((l) => fmt(warm(l))).join(' | ')} |${labels.length === 2 ? ` ${fmt(warm(labels[0]) / warm(labels[1]), 2)}x |` : ''}`);
}

async function main() {
  const a = parseArgs(process.argv);
  if (!a.llama_server || !a.model) { console.error('usage: serve_bench.mjs --strata BIN --llama-server BIN --model GGUF [...]'); process.exit(2); }
  // <cache>-server/build/bin/llama-server -> <cache>/src (bench/build-llama-server.sh's layout).
  const src = a.llama_src ?? path.join(path.dirname(path.dirname(path.dirname(a.llama_server))).replace(/-server$/, ''), 'src');
  const work = a.work ?? fs.mkdtempSync(path.join(os.tmpdir(), 'strata-serve-bench-'));
  fs.mkdirSync(work, { recursive: true });
  // Room for the grown conversation with margin: the prefix is sized in llama-server's tokens, and
  // strata serve's rendering of the same request can be longer (tools in the prompt, see README).
  a.ctx = a.ctx ? Number(a.ctx) : Math.ceil(1.25 * (a.prefix_tokens + a.turns * (a.turn_tokens + 80))) + 1024;
  if (a.template === undefined) a.template = path.join(src, 'models', 'templates', 'Qwen-Qwen2.5-7B-Instruct.jinja');
  if (a.template === 'model') a.template = '';  // the model's own template
  const text = corpus(src);

  const cal = new Server('llama', a, { ctx: a.ctx });
  await cal.start(path.join(work, 'calibrate.log'));
  let prefix;
  try { prefix = await calibrate(cal, text, a.prefix_tokens); } finally { await cal.stop(); }
  const cpu = (fs.readFileSync('/proc/cpuinfo', 'utf8').match(/model name\s*:\s*(.*)/) || [])[1];
  console.log(`model ${a.model} (${(fs.statSync(a.model).size / 1048576).toFixed(0)} MB); context ${a.ctx}; ${a.threads} threads; ${os.cpus().length} cores (${cpu}); load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
  console.log(`prefix: system (identity + ${prefix.text.length} characters of llama.cpp AGENTS.md and docs) + ${TOOLS.length} tools = ${prefix.tokens} tokens with a first user message`);
  console.log(`chat template: ${a.template || "the model's own"} (both servers)`);

  let w1;
  if (a.workloads.has(1) || a.workloads.has(3)) {
    w1 = await workload1(a, prefix, work);
    printWorkload1(w1, prefix, a);
    printStrataPhases(path.join(work, 'w1-strata.log'), "strata serve's request log, workload 1 (each warm session's request, then the same request on the live sequence)");
  }
  if (a.workloads.has(2)) {
    printWorkload2(await workload2(a, prefix, text, work), a);
    printStrataPhases(path.join(work, 'w2-strata.log'), "strata serve's request log, workload 2");
  }
  if (a.workloads.has(3)) {
    const rows = [], notes = [];
    const storeFile = largestFile(path.join(work, 'w1-store'));
    if (storeFile) {
      const logged = strataRestores(path.join(work, 'w1-strata.log'));
      let rs = logged.map((o) => o.restore_ms);
      if (logged.length > 0) {
        const part = (k) => fmt(median(logged.map((o) => o[k])), 2);
        notes.push(`strata restore = read ${part('restore_read_ms')} + verify ${part('restore_verify_ms')} + load ${part('restore_load_ms')} ms (medians of ${logged.length} restores; from its request log)`);
      }
      if (rs.length === 0) {
        // No restore time in the log: TTFT after a restart (restored from the file) minus TTFT of
        // the same request on the live sequence, per warm session.
        rs = (w1['strata serve (--store)']?.details ?? []).filter((d) => Number.isFinite(d.live_ttft)).map((d) => d.ttft - d.live_ttft);
        notes.push('strata restore time estimated as TTFT after the restart minus TTFT of the same request on the live sequence');
      }
      const rd = pageCacheReadMs(storeFile);
      rows.push(`| strata serve checkpoint | ${fmt(fs.statSync(storeFile).size / 1048576)} | ${fmt(median(rs), 2)} | ${fmt(rd, 2)} | ${fmt(median(rs) / rd, 2)}x |`);
    }
    const slotFile = path.join(work, 'w1-slots', 'agent.bin');
    if (fs.existsSync(slotFile)) {
      const rs = (w1['llama-server + scripted /slots save/restore']?.details ?? []).map((d) => d.restore_ms).filter((x) => x > 0);
      const rd = pageCacheReadMs(slotFile);
      rows.push(`| llama-server slot file (its own restore_ms) | ${fmt(fs.statSync(slotFile).size / 1048576)} | ${fmt(median(rs), 2)} | ${fmt(rd, 2)} | ${fmt(median(rs) / rd, 2)}x |`);
    }
    console.log('\n### Workload 3: restore time vs a page-cache read of the same bytes\n');
    console.log('| what | file MB | restore ms (median) | page-cache read ms | restore / read |\n|---|---|---|---|---|');
    for (const r of rows) console.log(r);
    for (const n of notes) console.log(`\n(${n})`);
  }
  console.log(`\nwork dir: ${work}`);
}

main().catch((e) => { console.error(e.stack || String(e)); process.exit(1); });
