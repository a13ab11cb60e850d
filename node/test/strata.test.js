// strata.test.js: the Node package over libstrata's C ABI (run with `node --test`).
// $STRATA_SOURCE_DIR: the strata source tree; $STRATA_VOCAB_DIR: llama.cpp's vocabularies or "".
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
// The package under test: this folder's, or the installed one $STRATA_NODE_PACKAGE names.
const strata = require(process.env.STRATA_NODE_PACKAGE || '..');

const SOURCE_DIR = process.env.STRATA_SOURCE_DIR || '';
const VOCAB_DIR = process.env.STRATA_VOCAB_DIR || '';
const LOCAL = strata.hasLocal() && VOCAB_DIR !== '';

const SESSION = {
  model: 'claude-sonnet-4-5',
  persona: 'You are a careful coding agent.',
  tools: [{ name: 'read', description: 'Reads a file.', input_schema: { type: 'object' } }],
  instructions: [{ key: 'AGENTS.md', text: '# Project\n\nRun make test.\n' }],
};

test('version is MAJOR.MINOR.PATCH', () => {
  assert.match(strata.version(), /^\d+\.\d+\.\d+$/);
});

test('compile verify names the source and the claude-code target', { skip: !SOURCE_DIR }, () => {
  const report = strata.compile(SOURCE_DIR, { verify: true });
  assert.equal(report.source, 'AGENTS.md');
  assert.ok(report.targets.some((t) => t.id === 'claude-code'));
  assert.throws(() => strata.compile(SOURCE_DIR, { targets: ['no-such-client'] }), /no-such-client/);
});

test('discover lists AGENTS.md with its content', { skip: !SOURCE_DIR }, () => {
  const found = strata.discover(SOURCE_DIR, { content: true });
  const agents = found.sources.find((s) => s.path === 'AGENTS.md');
  assert.ok(agents && agents.content.startsWith('# strata'));
  assert.throws(() => strata.discover('/nonexistent/strata-node-test'), /nonexistent/);
});

test('render: turn 1 up to its last breakpoint is a prefix of turn 2', () => {
  const s = new strata.Session(SESSION);
  s.beginTurn('hello');
  const one = s.render('anthropic');
  assert.ok(Buffer.isBuffer(one.request));
  assert.equal(JSON.parse(one.request).model, 'claude-sonnet-4-5');
  assert.deepEqual(one.layers.map((l) => l.layer).slice(0, 2), ['tools', 'persona']);
  s.append({ role: 'assistant', content: 'hi' });
  s.beginTurn('again');
  const two = s.render('anthropic');
  const last = Math.max(...one.breakpoints.map((b) => b.offset));
  assert.ok(one.request.subarray(0, last).equals(two.request.subarray(0, last)));
  s.close();
});

test('update: now, state and a one-shot signal ride in the tail after the user message', () => {
  const s = new strata.Session(SESSION);
  s.update({ now: '2026-11-29T10:00:00Z', session_state: { 'permission-mode': 'plan' },
             signals: [{ id: 's1', text: 'mode changed to plan' }] });
  s.beginTurn('hello');
  const one = s.render('openai-chat').request.toString();
  assert.ok(one.indexOf('hello') < one.indexOf('date-time: 2026-11-29T10:00:00Z'));
  assert.ok(one.includes('signal: mode changed to plan'));
  s.append({ role: 'assistant', content: 'hi' });
  s.beginTurn('again');
  const two = s.render('openai-chat').request.toString();
  assert.ok(!two.includes('mode changed to plan'));
  assert.ok(two.includes('permission-mode=plan'));
});

test('update: changed instructions are announced at the next turn, system kept', () => {
  const s = new strata.Session(SESSION);
  s.beginTurn('hello');
  const one = s.render('anthropic');
  s.append({ role: 'assistant', content: 'hi' });
  s.update({ instructions: [{ key: 'AGENTS.md', text: '# Project\n\nRun make check.\n' }] });
  s.beginTurn('again');
  const two = s.render('anthropic');
  const systemEnd = one.breakpoints[1].offset;
  assert.ok(one.request.subarray(0, systemEnd).equals(two.request.subarray(0, systemEnd)));
  assert.ok(two.request.toString().includes('## instructions:AGENTS.md (modified)'));
  assert.ok(two.layers.some((l) => l.layer === 'epoch'));
  assert.deepEqual(two.events, []);
});

test('update refuses history members and misspelt members', () => {
  const s = new strata.Session(SESSION);
  assert.throws(() => s.update({ user: 'x' }), /begin_turn/);
  assert.throws(() => s.update({ nots: 'x' }), /did you mean 'notes'/);
  assert.throws(() => s.append({ role: 'user', content: 'x' }));
  assert.throws(() => new strata.Session({ history: [{ role: 'robot' }] }), /robot/);
});

test('compact reports a compaction event', () => {
  const s = new strata.Session(SESSION);
  s.beginTurn('hello');
  s.render('anthropic');
  s.append({ role: 'assistant', content: 'hi' });
  s.compact([{ role: 'user', content: 'Summary: greeted.' }]);
  const r = s.render('anthropic');
  assert.deepEqual(r.events.map((e) => e.reason), ['compaction']);
  assert.ok(!r.request.toString().includes('hello'));
});

test('accountant: the second request reads what the first wrote', { skip: !LOCAL }, () => {
  const s = new strata.Session(SESSION);
  const a = new strata.Accountant('anthropic',
    { tokenizer: 'gpt-2', vocab_dir: VOCAB_DIR, minimum_tokens: 1 });
  s.beginTurn('hello');
  const one = a.account(s.render('anthropic').request, 'anthropic', 0);
  s.append({ role: 'assistant', content: 'hi' });
  s.beginTurn('again');
  const two = a.account(s.render('anthropic').request, 'anthropic', 10);
  assert.equal(one.cache_read_tokens, 0);
  assert.ok(one.cache_write_tokens > 0);
  assert.equal(two.cache_read_tokens, one.cache_write_tokens);
  assert.equal(two.hit_ratio, two.cache_read_tokens / two.input_tokens);
  assert.throws(() => a.account('{"messages": 3}', 'anthropic', 20), /messages/);
  assert.throws(() => new strata.Accountant('no-such-cache', { vocab_dir: VOCAB_DIR }), /no-such-cache/);
});

// No vocabulary and no llama.cpp needed: the "estimate" tokenizer (4 bytes per token).
test('accountant: the estimate tokenizer needs no vocabulary and names itself', () => {
  const s = new strata.Session(SESSION);
  const a = new strata.Accountant('anthropic', { tokenizer: 'estimate', minimum_tokens: 1 });
  s.beginTurn('hello');
  const one = a.account(s.render('anthropic').request, 'anthropic', 0);
  s.append({ role: 'assistant', content: 'hi' });
  s.beginTurn('again');
  const two = a.account(s.render('anthropic').request, 'anthropic', 10);
  assert.equal(one.tokenizer, 'estimate (4 bytes per token, no vocabulary)');
  assert.equal(two.cache_read_tokens, one.cache_write_tokens);
  assert.ok(two.cache_read_tokens > 0);
  // The default ("auto") always gives an accountant; it names what it counted with.
  const auto = new strata.Accountant('openai');
  assert.match(auto.account(s.render('openai-chat').request, 'openai-chat', 0).tokenizer,
    /^(llama\.cpp vocab qwen2|estimate )/);
});

test('explain names the first differing byte', { skip: !LOCAL }, () => {
  const a = Buffer.from('{"model":"m","messages":[{"role":"user","content":"hello"}]}');
  const b = Buffer.from('{"model":"m","messages":[{"role":"user","content":"help"}]}');
  const e = strata.explain(a, b, { tokenizer: 'gpt-2', vocab_dir: VOCAB_DIR });
  assert.equal(e.first_byte, '[messages[0].content[0] user text]\n'.length + 3);
});

test('replay reports every turn', { skip: !LOCAL }, () => {
  const log = [
    '{"type":"context","model":"claude-sonnet-4-5","persona":"You are terse."}',
    '{"type":"user","text":"hello"}', '{"type":"assistant","text":"hi"}',
    '{"type":"user","text":"again"}', '{"type":"assistant","text":"ok"}', ''].join('\n');
  const r = strata.replay(log, { tokenizer: 'gpt-2', vocab_dir: VOCAB_DIR });
  assert.equal(r.turns.length, 2);
  assert.throws(() => strata.replay(log, { format: 'yaml', vocab_dir: VOCAB_DIR }), /yaml/);
});
