// serve_concurrency.mjs: concurrent clients against `strata serve --parallel N` and llama.cpp's
// `llama-server -np N` (built from the same pinned source), same generated model, chat template,
// threads and context per sequence. Prints a markdown table.
//
//   node bench/serve_concurrency.mjs --strata BIN --llama-server BIN --model GGUF --template FILE
//        [--clients 1,2,4,8] [--threads 2] [--ctx-per-slot 4096] [--tokens 64]
//        [--prompt-words 400] [--system-words 800] [--text FILE] [--arms strata,llama]
//        [--work DIR] [--repeat 3]
//
// For each N, each server is started fresh with N sequences (strata: --parallel N --ctx C; llama-
// server: -np N -c N*C, so C tokens per slot), gets one untimed warm-up request, then two rounds:
//   distinct: N clients at once, each a different --prompt-words prompt;
//   shared:   N clients at once, each the same --system-words system message (new to the server)
//             followed by a different --prompt-words user message.
// Every request: streaming Chat Completions, temperature 0, max_tokens --tokens. Per round:
// aggregate generated tokens per second (all completion tokens / wall time from the first send to
// the last reply's end) and mean time to first token (client-measured: send to the first chunk
// with generated text). --repeat K runs each N K times, the two servers alternating (strata,
// llama-server, strata, ...) so that a change in the machine's load falls on both, and reports the
// median of each figure over the K runs. The text is real prose (llama.cpp's docs/*.md of the pinned source, or
// --text), cut into word windows that differ per client and round.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { ALIAS, ServerProcess } from './serve_client.mjs';

function parseArgs(argv) {
  const a = {
    clients: '1,2,4,8', threads: '2', ctx_per_slot: '4096', tokens: '64', prompt_words: '400',
    system_words: '800', arms: 'strata,llama', repeat: '1',
  };
  for (let i = 2; i < argv.length; ++i) if (argv[i].startsWith('--')) a[argv[i].slice(2).replace(/-/g, '_')] = argv[++i];
  for (const k of ['threads', 'ctx_per_slot', 'tokens', 'prompt_words', 'system_words', 'repeat']) a[k] = Number(a[k]);
  a.clients = a.clients.split(',').map(Number);
  a.arms = new Set(a.arms.split(','));
  return a;
}

// strata serve with N sequences of C tokens, or llama-server with N slots of C tokens (-c N*C).
class Server extends ServerProcess {
  constructor(kind, a, n, work) {
    super(kind, (port) => {
      if (kind === 'strata') {
        const store = path.join(work, `store-np${n}`);
        fs.rmSync(store, { recursive: true, force: true });
        fs.mkdirSync(store, { recursive: true });
        return [a.strata, ['serve', '--model', a.model, '--host', '127.0.0.1', '--port', String(port), '--ctx', String(a.ctx_per_slot),
          '--parallel', String(n), '--threads', String(a.threads), '--store', store, '--alias', ALIAS,
          '--chat-template-file', a.template]];
      }
      return [a.llama_server, ['-m', a.model, '--host', '127.0.0.1', '--port', String(port), '-c', String(a.ctx_per_slot * n), '-np', String(n),
        '-t', String(a.threads), '-tb', String(a.threads), '--jinja', '--alias', ALIAS, '--no-warmup',
        '--chat-template-file', a.template]];
    });
    this.logName = path.join(work, `${kind}-np${n}.log`);
  }

  start() { fs.rmSync(this.logName, { force: true }); return super.start(this.logName); }

  chat(messages, maxTokens) { return super.chat(messages, { maxTokens }); }
}

function corpusWords(a) {
  let text;
  if (a.text) {
    text = fs.readFileSync(a.text, 'utf8');
  } else {
    const docs = path.join(a.llama_src, 'docs');
    text = fs.readdirSync(docs).filter((f) => f.endsWith('.md')).sort()
      .map((f) => fs.readFileSync(path.join(docs, f), 'utf8')).join('\n\n');
  }
  return text.split(/\s+/).filter(Boolean);
}

// `count` words starting at window `k` (windows do not overlap while the text lasts).
function words(all, k, count) {
  const start = (k * count) % Math.max(1, all.length - count);
  return all.slice(start, start + count).join(' ');
}

async function round(server, requests, maxTokens) {
  const t0 = performance.now();
  const results = await Promise.all(requests.map((m) => server.chat(m, maxTokens)));
  const wall = Math.max(...results.map((r) => r.end_ms)) - t0;
  const generated = results.reduce((s, r) => s + (r.usage?.completion_tokens ?? 0), 0);
  const cached = results.reduce((s, r) => s + (r.usage?.prompt_tokens_details?.cached_tokens ?? 0), 0);
  const prompt = results.reduce((s, r) => s + (r.usage?.prompt_tokens ?? 0), 0);
  return {
    tps: generated / (wall / 1000), ttft: results.reduce((s, r) => s + r.ttft_ms, 0) / results.length,
    wall, generated, prompt, cached,
  };
}

function median(xs) {
  const v = [...xs].sort((x, y) => x - y);
  return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
}

async function main() {
  const a = parseArgs(process.argv);
  const work = a.work ?? fs.mkdtempSync(path.join(os.tmpdir(), 'strata-concurrency-'));
  fs.mkdirSync(work, { recursive: true });
  const all = corpusWords(a);
  let window = 0;  // next word window: every prompt of the run is different
  const rows = [];
  for (const n of a.clients) {
    // The same prompts for both servers at this N.
    const warm = [{ role: 'user', content: words(all, window++, 50) }];
    const distinct = Array.from({ length: n }, () => [{ role: 'user', content: words(all, window++, a.prompt_words) }]);
    const system = { role: 'system', content: words(all, window, a.system_words) };
    window += Math.ceil(a.system_words / a.prompt_words) + 1;
    const shared = Array.from({ length: n }, () => [system, { role: 'user', content: words(all, window++, a.prompt_words) }]);
    const row = { n };
    const runs = { strata: [], llama: [] };
    for (let rep = 0; rep < a.repeat; ++rep) {
      for (const kind of ['strata', 'llama']) {
        if (!a.arms.has(kind)) continue;
        const server = new Server(kind, a, n, work);
        await server.start();
        let r;
        try {
          await server.chat(warm, 4);
          r = { distinct: await round(server, distinct, a.tokens), shared: await round(server, shared, a.tokens) };
        } finally {
          await server.stop();
        }
        runs[kind].push(r);
        process.stderr.write(`N=${n} ${kind} run ${rep + 1}/${a.repeat}: distinct ${r.distinct.tps.toFixed(1)} tok/s ttft ${r.distinct.ttft.toFixed(0)} ms ` +
          `(${r.distinct.generated} tokens, ${r.distinct.prompt} prompt); shared ${r.shared.tps.toFixed(1)} tok/s ttft ${r.shared.ttft.toFixed(0)} ms ` +
          `(${r.shared.generated} tokens, ${r.shared.prompt} prompt, ${r.shared.cached} cached)\n`);
      }
    }
    for (const kind of ['strata', 'llama']) {
      if (runs[kind].length === 0) continue;
      row[kind] = {};
      for (const w of ['distinct', 'shared']) {
        const of = (k) => median(runs[kind].map((r) => r[w][k]));
        row[kind][w] = { tps: of('tps'), ttft: of('ttft'), wall: of('wall') };
      }
    }
    rows.push(row);
  }
  const f = (x, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : '-');
  for (const w of ['distinct', 'shared']) {
    console.log(`\n### ${a.repeat > 1 ? `Medians of ${a.repeat} runs: ` : ''}${w === 'distinct' ? `Distinct ${a.prompt_words}-word prompts` : `Shared ${a.system_words}-word system prompt + distinct ${a.prompt_words}-word prompts`}\n`);
    console.log('| clients | strata tok/s | llama-server tok/s | ratio | strata mean TTFT ms | llama-server mean TTFT ms | strata wall s | llama-server wall s |');
    console.log('|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const row of rows) {
      const s = row.strata?.[w], l = row.llama?.[w];
      console.log(`| ${row.n} | ${f(s?.tps)} | ${f(l?.tps)} | ${s && l ? f(s.tps / l.tps, 2) : '-'} | ${f(s?.ttft, 0)} | ${f(l?.ttft, 0)} | ${f(s ? s.wall / 1000 : NaN, 2)} | ${f(l ? l.wall / 1000 : NaN, 2)} |`);
    }
  }
}

main().catch((e) => { console.error(e); process.exit(1); });
