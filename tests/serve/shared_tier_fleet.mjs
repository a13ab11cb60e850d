// shared_tier_fleet.mjs: a fleet of separate `strata serve` processes (the strata-local binary, each
// with its own local store) sharing one redis-server that this script starts on loopback. One
// scenario per run, named by the first argument:
//   restore      a second process restores from Redis the prefix the first computed (usage and
//                /metrics), and its tokens at temperature 0 equal the first's cold run;
//   one_prefill  four processes receive the same new prefix at once: one prefill across the four
//                (their /metrics summed);
//   faults       Redis stopped (slow), then killed, under a running process, and a process with a
//                wrong password: each request is answered by prefill, the failure is counted in
//                /metrics by reason and warned on the process's stderr.
// Every wait is bounded; every process is killed on the way out.
//
//   node shared_tier_fleet.mjs SCENARIO STRATA_LOCAL MODEL SCRATCH REDIS_SERVER
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { check, startServer } from './sdk/serve_harness.mjs';

const [scenario, strataLocal, model, scratch, redisServer] = process.argv.slice(2);
const system = "You are a coding agent working in the user's project. Answer briefly. Read files " +
  'before changing them, run the tests after each change, and report what you did.';
const tools = [{ type: 'function', function: { name: 'read_file', description: 'Reads a file of the project.',
  parameters: { type: 'object', properties: { path: { type: 'string' } } } } }];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const children = [];  // every process started, killed on the way out

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

// redis-server on 127.0.0.1 and a free port, no persistence; resolves when it accepts connections.
async function startRedis(name, password = '') {
  const port = await freePort();
  const dir = path.join(scratch, name);
  fs.mkdirSync(dir, { recursive: true });
  const args = ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no',
                '--dir', dir, ...(password ? ['--requirepass', password] : [])];
  const child = spawn(redisServer, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let log = '';
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server did not start in 20 s: ${log}`)), 20000);
    child.stdout.on('data', (d) => {
      log += d;
      if (log.includes('Ready to accept connections')) { clearTimeout(timer); resolve(); }
    });
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`redis-server exited ${code}: ${log}`)); });
  });
  child.removeAllListeners('exit');
  return { port, url: `redis://127.0.0.1:${port}`, child };
}

async function serve(name, redisUrl, extra = []) {
  const server = await startServer(strataLocal, model, path.join(scratch, name),
                                   ['--shared-store', redisUrl, ...extra]);
  const stop = server.stop;
  let stopped = false;
  server.stop = async () => { if (!stopped) { stopped = true; await stop(); } };
  children.push(server);
  return server;
}

async function chat(server, user, sys = system) {
  const res = await fetch(server.url + '/v1/chat/completions', {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'tiny', max_tokens: 6, temperature: 0, tools,
      messages: [{ role: 'system', content: sys }, { role: 'user', content: user }] }),
    signal: AbortSignal.timeout(120000) });
  const body = await res.json();
  check(res.status === 200, `status 200 (got ${res.status}: ${JSON.stringify(body)})`);
  return { cached: body.usage.prompt_tokens_details.cached_tokens, prompt: body.usage.prompt_tokens,
           text: body.choices[0].message.content ?? '' };
}

// One sample of /metrics by its full name (with labels); -1 when absent.
async function metric(server, name) {
  const text = await (await fetch(server.url + '/metrics', { signal: AbortSignal.timeout(10000) })).text();
  const line = text.split('\n').find((l) => l.startsWith(name + ' '));
  return line === undefined ? -1 : Number(line.slice(name.length + 1));
}

async function awaitPublished(server, n) {
  for (let i = 0; i < 1500; ++i) {
    if (await metric(server, 'strata_shared_store_published_total') >= n) return;
    await sleep(20);
  }
  throw new Error(`${n} checkpoints were not published in 30 s`);
}

const kvFiles = (name) => fs.readdirSync(path.join(scratch, name)).filter((f) => f.endsWith('.kv'));
const errors = (server, reason) => metric(server, `strata_shared_store_errors_total{reason="${reason}"}`);
const warned = (server, reason) => server.lines.some((l) => l.startsWith(`strata serve: shared store ${reason}:`));

// A computes cold and publishes; returns its reply.
async function coldRun(redis) {
  const a = await serve('kv-a', redis.url);
  const cold = await chat(a, 'Where are the tests?');
  check(cold.cached === 0, 'the first process computes cold');
  await awaitPublished(a, 2);  // the system + tools cut and the whole prompt
  await a.stop();
  return cold;
}

const scenarios = {
  async restore() {
    const redis = await startRedis('redis');
    const cold = await coldRun(redis);
    const b = await serve('kv-b', redis.url);
    check(kvFiles('kv-b').length === 0, 'the second process starts with an empty local store');
    const r = await chat(b, 'Where are the tests?');
    check(r.cached === r.prompt - 1, `all but the last prompt token restored (${r.cached} of ${r.prompt})`);
    check(r.text === cold.text, `tokens equal the cold run's (${JSON.stringify(r.text)} vs ${JSON.stringify(cold.text)})`);
    check(await metric(b, 'strata_shared_store_hits_total') === 1, 'one shared store hit');
    check(await metric(b, 'strata_prompt_tokens_restored_total') === r.prompt - 1, 'restored tokens in /metrics');
    check(kvFiles('kv-b').length >= 1, 'the hit was written into the local store');
    const other = await chat(b, 'List the source files.');
    check(other.cached > 0, 'another conversation restores the shared system + tools cut');
  },

  async one_prefill() {
    const redis = await startRedis('redis');
    const servers = await Promise.all([0, 1, 2, 3].map((i) => serve(`kv-${i}`, redis.url)));
    const replies = await Promise.all(servers.map((s) => chat(s, 'Start the task.')));
    const cold = replies.filter((r) => r.cached === 0).length;
    check(cold === 1, `one process prefilled (${cold} answered cold)`);
    check(replies.every((r) => r.text === replies[0].text), 'every process generated the same tokens');
    const sum = async (name) => (await Promise.all(servers.map((s) => metric(s, name)))).reduce((a, b) => a + b, 0);
    const held = await sum('strata_shared_store_leases_total{outcome="held"}');
    const hits = await sum('strata_shared_store_hits_total');
    check(held === 1, `one lease held across the four (${held})`);
    check(hits === 3, `three processes restored from Redis (${hits})`);
    check(await sum('strata_checkpoint_misses_total') >= 1, 'the holder missed');
  },

  async faults() {
    const redis = await startRedis('redis');
    const cold = await coldRun(redis);
    const b = await serve('kv-b', redis.url, ['--shared-store-timeout-ms', '500']);
    await chat(b, 'Warm up.', 'Another system prompt.');  // B's connections to Redis are open
    redis.child.kill('SIGSTOP');  // slow: no reply within the timeout
    // (The live sequence still shares the warm-up's first tokens: nothing is restored.)
    const slow = await chat(b, 'Where are the tests?');
    check(b.requests().at(-1).restored === 0 && slow.text === cold.text, 'a stopped Redis: answered by prefill');
    check(await errors(b, 'timeout') >= 1 && warned(b, 'timeout'), 'the timeout is counted and warned');
    redis.child.kill('SIGKILL');  // killed while B's connections to it were open
    await new Promise((resolve) => redis.child.exitCode !== null || redis.child.signalCode !== null
      ? resolve() : redis.child.on('exit', resolve));
    await sleep(1200);  // past the retry interval after the timeout
    const lost = await chat(b, 'Where are the tests?', system + ' Be terse.');
    check(b.requests().at(-1).restored === 0 && lost.cached < lost.prompt / 2, 'a killed Redis: answered by prefill');
    check(await errors(b, 'unreachable') >= 1 && warned(b, 'unreachable'), 'unreachable is counted and warned');

    const locked = await startRedis('redis-auth', 'right');
    const c = await serve('kv-c', `redis://:wrong@127.0.0.1:${locked.port}`);
    const r = await chat(c, 'Where are the tests?');
    check(r.cached === 0 && r.text === cold.text, 'a wrong password: answered by prefill');
    check(await errors(c, 'auth') >= 1 && warned(c, 'auth'), 'the wrong password is counted and warned');
    check(!c.lines.some((l) => l.includes('wrong')), 'the password is not logged');
    check(await metric(c, 'strata_shared_store_published_total') === 0, 'nothing published');
  },
};

try {
  if (!scenarios[scenario]) throw new Error(`unknown scenario ${scenario}`);
  await scenarios[scenario]();
  console.log('ok');
} catch (e) {
  console.error(e.stack || String(e));
  for (const c of children) if (c.lines) console.error(c.lines.join('\n'));
  process.exitCode = 1;
} finally {
  for (const c of children) {
    if (c.stop) await c.stop();
    else { c.kill('SIGCONT'); c.kill('SIGKILL'); }
  }
}
