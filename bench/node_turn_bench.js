#!/usr/bin/env node
// node_turn_bench.js: time per turn of a harness written in Node, through the strata addon (one
// session kept across turns) beside spawning `strata assemble --session -` per turn (stateless:
// each spawn is given the whole history as a session document).
//
//   node bench/node_turn_bench.js STRATA_PACKAGE_DIR STRATA_CLI [TURNS]
//
// A turn: set the clock, begin a user turn, render the Anthropic request, append a tool call, its
// result and a reply (the addon path); the spawned CLI renders the same request from the
// document. Both render the same bytes (checked on every turn). Prints the mean and median ms
// per turn for each path.
'use strict';
const { spawnSync } = require('child_process');
const { performance } = require('perf_hooks');

const [pkg, cli, turnsArg = '50'] = process.argv.slice(2);
if (!pkg || !cli) {
  console.error('usage: node_turn_bench.js STRATA_PACKAGE_DIR STRATA_CLI [TURNS]');
  process.exit(2);
}
const strata = require(require('path').resolve(pkg));
const turns = Number(turnsArg);
const context = {
  model: 'claude-sonnet-4-5',
  persona: 'You are a careful coding agent. Read before you write; run the tests before you commit.',
  tools: [{ name: 'read', description: 'Reads a file.', input_schema: { type: 'object' } },
          { name: 'bash', description: 'Runs a command.', input_schema: { type: 'object' } }],
  instructions: [{ key: 'AGENTS.md', text: '# Project\n\nRun `make test` first.\n'.repeat(20) }],
  cwd: '/work/project',
};
const history = [];
const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { mean: xs.reduce((a, b) => a + b, 0) / xs.length, median: s[Math.floor(s.length / 2)] };
};

const session = new strata.Session(context);
const addonMs = [], spawnMs = [];
for (let n = 1; n <= turns; n++) {
  const now = `2026-11-29T10:${String(n % 60).padStart(2, '0')}:00Z`;
  const user = `Step ${n}: read file ${n}.`;
  const t0 = performance.now();
  session.update({ now });
  session.beginTurn(user);
  const rendered = session.render('anthropic').request;
  const t1 = performance.now();

  const doc = JSON.stringify({ ...context, now, history, user });
  const t2 = performance.now();
  const run = spawnSync(cli, ['assemble', '--session', '-'], { input: doc, maxBuffer: 1 << 28 });
  const t3 = performance.now();
  if (run.status !== 0) throw new Error(`strata assemble failed: ${run.stderr}`);
  const printed = run.stdout.subarray(0, run.stdout.length - 1);  // the final newline
  if (!printed.equals(rendered)) throw new Error(`turn ${n}: the CLI rendered other bytes`);

  const messages = [
    { role: 'user', content: user },
    { role: 'assistant', content: '', tool_calls: [{ id: `c${n}`, name: 'read', arguments: { path: `f${n}` } }] },
    { role: 'tool', tool_call_id: `c${n}`, content: `contents of file ${n}\n`.repeat(10) },
    { role: 'assistant', content: `Read file ${n}.` },
  ];
  const t4 = performance.now();
  for (const m of messages.slice(1)) session.append(m);
  const t5 = performance.now();
  history.push(...messages);
  addonMs.push(t1 - t0 + (t5 - t4));
  spawnMs.push(t3 - t2);
}
const a = stats(addonMs), s = stats(spawnMs);
console.log(`turns: ${turns}, final request ${session.render('anthropic').request.length} bytes`);
console.log(`addon (one session):          mean ${a.mean.toFixed(3)} ms, median ${a.median.toFixed(3)} ms per turn`);
console.log(`spawn strata assemble -:      mean ${s.mean.toFixed(3)} ms, median ${s.median.toFixed(3)} ms per turn`);
console.log(`ratio (spawn / addon, median): ${(s.median / a.median).toFixed(1)}x`);
