// serve_client.mjs: the benchmarks' client of a local server (strata serve or llama-server), shared
// by serve_bench.mjs and serve_concurrency.mjs so both time the same way: the server process
// started on a free port and waited for until /health answers 200 (start-up is never timed), and
// one streamed Chat Completion timed by the client from the request sent to the first chunk that
// carries generated text (delta.content, reasoning_content or tool_calls).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';

export const ALIAS = 'bench';

export async function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

export class ServerProcess {
  // kind: 'strata' or 'llama'; command(port) gives [binary, argv] for that port.
  constructor(kind, command) { this.kind = kind; this.command = command; }

  // Starts the server, its output appended to logFile; throws if it exits or is not healthy
  // within 120 s.
  async start(logFile) {
    this.port = await freePort();
    this.logFile = logFile;
    const [cmd, argv] = this.command(this.port);
    const out = fs.openSync(logFile, 'a');
    this.child = spawn(cmd, argv, { stdio: ['ignore', out, out] });
    const until = Date.now() + 120_000;
    for (;;) {
      if (this.child.exitCode !== null) throw new Error(`${cmd} exited ${this.child.exitCode}; see ${logFile}`);
      if (Date.now() > until) throw new Error(`${cmd} did not become healthy; see ${logFile}`);
      try { if ((await fetch(this.url('/health'))).status === 200) break; } catch { /* starting */ }
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  url(p) { return `http://127.0.0.1:${this.port}${p}`; }

  // SIGTERM, then SIGKILL after 30 s.
  async stop() {
    if (!this.child || this.child.exitCode !== null) return;
    const done = new Promise((r) => this.child.once('exit', r));
    this.child.kill('SIGTERM');
    const t = setTimeout(() => this.child.kill('SIGKILL'), 30_000);
    await done;
    clearTimeout(t);
  }

  // POSTs JSON; the parsed reply, or an error naming the status.
  async post(p, body) {
    const r = await fetch(this.url(p), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const text = await r.text();
    if (r.status !== 200) throw new Error(`${this.kind} ${p}: ${r.status} ${text.slice(0, 400)}`);
    return JSON.parse(text);
  }

  // One streamed chat completion at temperature 0: { ttft_ms, total_ms, end_ms (performance.now()
  // at the end), usage, timings (llama-server's and strata's per-request timings, when sent) }.
  async chat(messages, { tools, maxTokens }) {
    const body = {
      model: ALIAS, messages, tools, stream: true, stream_options: { include_usage: true },
      max_tokens: maxTokens, temperature: 0, seed: 1,
    };
    const t0 = performance.now();
    const r = await fetch(this.url('/v1/chat/completions'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (r.status !== 200) throw new Error(`${this.kind} chat: ${r.status} ${(await r.text()).slice(0, 400)}`);
    let ttft = NaN, usage = null, timings = null, buf = '';
    const decoder = new TextDecoder();
    for await (const chunk of r.body) {
      buf += decoder.decode(chunk, { stream: true });
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl).trim();
        buf = buf.slice(nl + 1);
        if (!line.startsWith('data:')) continue;
        const data = line.slice(5).trim();
        if (data === '[DONE]') continue;
        let ev;
        try { ev = JSON.parse(data); } catch { continue; }
        const d = ev.choices?.[0]?.delta;
        if (Number.isNaN(ttft) && d && (d.content || d.reasoning_content || d.tool_calls)) ttft = performance.now() - t0;
        if (ev.usage) usage = ev.usage;
        if (ev.timings) timings = ev.timings;
      }
    }
    const end = performance.now();
    return { ttft_ms: Number.isNaN(ttft) ? end - t0 : ttft, total_ms: end - t0, end_ms: end, usage, timings };
  }
}
