// harness.ts: a short agent loop on strata from TypeScript. Each turn updates the clock (the
// volatile tail), begins with a user message, renders the request for Anthropic and for OpenAI
// Chat Completions, reads each as the SDK's own request type, and prints its hit ratio from
// strata's cache accounting (strata.Accountant: the request's canonical prompt, tokenized block by
// block, through `strata replay`'s cache rules). A scripted assistant answers with a tool call and
// a reply; before turn 3 the project's instructions change and strata announces the diff instead
// of rewriting the cached system prompt. The prefix is the instruction files strata discovers in
// PROJECT_DIR plus the tools below.
//
// Usage: node harness.js PROJECT_DIR [VOCAB_DIR [TURNS]]: VOCAB_DIR holds llama.cpp's vocabularies
// (counts with qwen2's); "" or none counts with the "estimate" tokenizer (4 bytes per token, no
// vocabulary, no llama.cpp needed).
import type { MessageCreateParamsNonStreaming } from '@anthropic-ai/sdk/resources/messages';
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import * as strata from 'strata';

const [projectDir = '.', vocabDir = '', turnsArg = '3'] = process.argv.slice(2);

// A coding agent's tools, described as harnesses describe them (a few hundred tokens: with the
// instructions, the prefix passes the providers' 1024-token minimum for caching).
const tool = (name: string, description: string, params: Record<string, string>): strata.ToolDefinition => ({
  name, description,
  input_schema: {
    type: 'object',
    properties: Object.fromEntries(Object.entries(params).map(([k, d]) => [k, { type: 'string', description: d }])),
    required: Object.keys(params),
  },
});
const tools: strata.ToolDefinition[] = [
  tool('read', 'Reads a file of the project and returns its text with line numbers. Read a file ' +
    'before you edit it; for large files pass a line range instead of reading the whole file.',
    { path: 'The path of the file, relative to the project root.' }),
  tool('edit', 'Replaces one exact occurrence of a string in a file. The old string must match the ' +
    'file byte for byte, including indentation, and must occur exactly once; include enough ' +
    'surrounding lines to make it unique.',
    { path: 'The file to edit.', old_string: 'The exact text to replace.', new_string: 'Its replacement.' }),
  tool('write', 'Writes a new file, or overwrites a file you have read in this session. Prefer edit ' +
    'for changes to existing files; never write a file you have not read.',
    { path: 'The file to write.', content: 'The complete new content.' }),
  tool('bash', 'Runs a shell command in the project directory and returns its output and exit ' +
    'status. Commands time out after two minutes; do not start servers or interactive programs. ' +
    'Quote paths that contain spaces.',
    { command: 'The command line to run.' }),
  tool('grep', 'Searches file contents with a regular expression (ripgrep syntax) and returns the ' +
    'matching lines with their paths and line numbers; respects .gitignore.',
    { pattern: 'The regular expression.', path: 'The directory or file to search.' }),
  tool('glob', 'Lists the files whose paths match a glob pattern such as src/**/*.ts, newest first.',
    { pattern: 'The glob pattern.' }),
];

// The project's instruction files, as an agent working there sees them.
const found = strata.discover(projectDir, { content: true });
const instructions = found.sources.map((s) => ({ key: s.path, text: s.content ?? '' }));

const session = new strata.Session({
  model: 'claude-sonnet-4-5',
  persona: 'You are a careful coding agent. Read before you write; run the tests before you commit.',
  tools,
  instructions,
  cwd: projectDir,
});
const counting = vocabDir ? { tokenizer: 'qwen2', vocab_dir: vocabDir } : { tokenizer: 'estimate' };
const anthropic = new strata.Accountant('anthropic', counting);
const openai = new strata.Accountant('openai', counting);

const turns = Number(turnsArg);
for (let n = 1; n <= turns; n++) {
  session.update({ now: `2026-11-29T10:${String(n).padStart(2, '0')}:00Z` });
  if (n === 3 && instructions.length > 0) {
    const changed = instructions.map((s, i) => (i === 0 ? { ...s, text: s.text + '\nUse tabs.\n' } : s));
    session.update({ instructions: changed });
  }
  session.beginTurn(`Step ${n}: what should I look at next?`);

  const a = session.render('anthropic');
  const params: MessageCreateParamsNonStreaming = JSON.parse(a.request.toString());
  const o = session.render('openai-chat');
  const chat: ChatCompletionCreateParamsNonStreaming = JSON.parse(o.request.toString());
  const ua = anthropic.account(a.request, 'anthropic', 60 * n);
  const uo = openai.account(o.request, 'openai-chat', 60 * n);
  console.log(`turn ${n}: anthropic ${ua.input_tokens} tokens, hit ratio ${ua.hit_ratio.toFixed(3)} ` +
    `(${params.messages.length} messages, ${a.breakpoints.length} breakpoints); ` +
    `openai ${uo.input_tokens} tokens, hit ratio ${uo.hit_ratio.toFixed(3)} (${chat.messages.length} messages)`);

  const id = `call_${n}`;
  session.append({ role: 'assistant', content: '', tool_calls: [{ id, name: 'read', arguments: { path: 'README.md' } }] });
  session.append({ role: 'tool', tool_call_id: id, content: `# README (read ${n})` });
  session.append({ role: 'assistant', content: `Done with step ${n}.` });
}
session.close();
anthropic.close();
openai.close();
