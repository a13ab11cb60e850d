// scripted_upstream.mjs: a stub model provider on 127.0.0.1 for the real-client session tests: it
// answers Anthropic Messages, OpenAI Chat Completions and OpenAI Responses requests (streamed or
// not) by a fixed script, so that a harness runs a real tool call per turn:
//   - the request offers the harness's shell tool and its last message is the user's (no tool
//     result yet): one call of that tool running `cat hello.txt`;
//   - the last message carries a tool result: a final text answer ("Done.");
//   - anything else (a title or summary request without tools): a short text.
// Every answer carries the same usage figures (USAGE below; sessions.mjs --usage checks that
// `strata usage` reads them back from the harness's log). Every request is kept in `requests`
// (method, url, parsed body) for the test.
import http from 'node:http';

// The shell tool each harness offers and the arguments that run `cat hello.txt`.
const SHELL_TOOLS = {
  Bash: { command: 'cat hello.txt', description: 'Print hello.txt' },
  bash: { command: 'cat hello.txt', description: 'Print hello.txt' },
  shell: { command: ['cat', 'hello.txt'] },
  exec_command: { cmd: 'cat hello.txt' },
  shell_command: { command: 'cat hello.txt' },
};

function toolName(tool) {
  return tool?.name ?? tool?.function?.name;
}

function shellTool(tools) {
  for (const t of tools ?? []) if (SHELL_TOOLS[toolName(t)]) return toolName(t);
  return null;
}

// What to answer: { kind: 'tool', name, args } or { kind: 'text', text }.
function decide(api, body) {
  const tool = shellTool(body.tools);
  let lastIsResult = false;
  if (api === 'messages') {
    const last = (body.messages ?? []).at(-1);
    lastIsResult = Array.isArray(last?.content) && last.content.some((b) => b?.type === 'tool_result');
  } else if (api === 'chat') {
    lastIsResult = (body.messages ?? []).at(-1)?.role === 'tool';
  } else {
    const input = Array.isArray(body.input) ? body.input : [];
    lastIsResult = input.at(-1)?.type === 'function_call_output';
  }
  if (tool && !lastIsResult) return { kind: 'tool', name: tool, args: SHELL_TOOLS[tool] };
  return { kind: 'text', text: tool ? 'Done.' : 'Hello file' };
}

// The usage of every answer, per API, distinct figures so that a reader mixing them up shows:
//   Anthropic Messages: 10 uncached input tokens, 4 read from the cache, 2 written to it, 5 output;
//   Responses: 14 input tokens, 4 of them cached (OpenAI's input_tokens include the cached), 5 output;
//   Chat Completions: 10 prompt tokens, none cached, 5 completion tokens.
export const USAGE = {
  messages: { input_tokens: 10, cache_read_input_tokens: 4, cache_creation_input_tokens: 2, output_tokens: 5 },
  responses: { input_tokens: 14, input_tokens_details: { cached_tokens: 4 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 19 },
  chat: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
};

let counter = 0;
const nextId = (p) => `${p}_${++counter}`;

function sse(res, events) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const [event, data] of events) {
    if (event) res.write(`event: ${event}\n`);
    res.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
  }
  res.end();
}

function answerMessages(body, res) {
  const d = decide('messages', body);
  const usage = USAGE.messages;
  const block = d.kind === 'tool'
    ? { type: 'tool_use', id: nextId('toolu'), name: d.name, input: d.args }
    : { type: 'text', text: d.text };
  const stop = d.kind === 'tool' ? 'tool_use' : 'end_turn';
  const message = { id: nextId('msg'), type: 'message', role: 'assistant', model: body.model ?? 'm', stop_sequence: null };
  if (!body.stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ...message, content: [block], stop_reason: stop, usage }));
    return;
  }
  const start = d.kind === 'tool' ? { ...block, input: {} } : { type: 'text', text: '' };
  const delta = d.kind === 'tool'
    ? { type: 'input_json_delta', partial_json: JSON.stringify(d.args) }
    : { type: 'text_delta', text: d.text };
  sse(res, [
    ['message_start', { type: 'message_start', message: { ...message, content: [], stop_reason: null, usage } }],
    ['content_block_start', { type: 'content_block_start', index: 0, content_block: start }],
    ['content_block_delta', { type: 'content_block_delta', index: 0, delta }],
    ['content_block_stop', { type: 'content_block_stop', index: 0 }],
    ['message_delta', { type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 5 } }],
    ['message_stop', { type: 'message_stop' }],
  ]);
}

function answerChat(body, res) {
  const d = decide('chat', body);
  const id = nextId('chatcmpl');
  const base = { id, object: 'chat.completion.chunk', created: 0, model: body.model ?? 'm' };
  const usage = USAGE.chat;
  const call = d.kind === 'tool'
    ? { index: 0, id: nextId('call'), type: 'function', function: { name: d.name, arguments: JSON.stringify(d.args) } }
    : null;
  const finish = call ? 'tool_calls' : 'stop';
  if (!body.stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    const message = call ? { role: 'assistant', content: null, tool_calls: [{ ...call, index: undefined }] }
      : { role: 'assistant', content: d.text };
    res.end(JSON.stringify({ ...base, object: 'chat.completion', choices: [{ index: 0, message, finish_reason: finish }], usage }));
    return;
  }
  const events = [
    [null, { ...base, choices: [{ index: 0, delta: call ? { role: 'assistant', tool_calls: [call] } : { role: 'assistant', content: d.text }, finish_reason: null }] }],
    [null, { ...base, choices: [{ index: 0, delta: {}, finish_reason: finish }] }],
  ];
  if (body.stream_options?.include_usage) events.push([null, { ...base, choices: [], usage }]);
  events.push([null, '[DONE]']);
  sse(res, events);
}

function answerResponses(body, res) {
  const d = decide('responses', body);
  const id = nextId('resp');
  const usage = USAGE.responses;
  const item = d.kind === 'tool'
    ? { type: 'function_call', id: nextId('fc'), call_id: nextId('call'), name: d.name, arguments: JSON.stringify(d.args), status: 'completed' }
    : { type: 'message', id: nextId('msg'), role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: d.text, annotations: [] }] };
  const response = { id, object: 'response', created_at: 0, model: body.model ?? 'm', status: 'completed', output: [item], usage };
  if (!body.stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(response));
    return;
  }
  const inProgress = { ...response, status: 'in_progress', output: [], usage: null };
  sse(res, [
    ['response.created', { type: 'response.created', sequence_number: 0, response: inProgress }],
    ['response.output_item.added', { type: 'response.output_item.added', sequence_number: 1, output_index: 0, item }],
    ['response.output_item.done', { type: 'response.output_item.done', sequence_number: 2, output_index: 0, item }],
    ['response.completed', { type: 'response.completed', sequence_number: 3, response }],
  ]);
}

// Starts the upstream on a free port of 127.0.0.1; resolves to { server, port, requests }.
export function startScriptedUpstream() {
  const requests = [];
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      let body = {};
      try { body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}'); } catch { /* not JSON */ }
      const url = req.url.split('?')[0];
      requests.push({ method: req.method, url: req.url, body });
      if (req.method === 'GET' && url.endsWith('/models')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ object: 'list', data: [{ id: body.model ?? 'strata-test', object: 'model' }] }));
      } else if (url.endsWith('/messages/count_tokens')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ input_tokens: 10 }));
      } else if (url.endsWith('/messages')) answerMessages(body, res);
      else if (url.endsWith('/chat/completions')) answerChat(body, res);
      else if (url.endsWith('/responses')) answerResponses(body, res);
      else { res.writeHead(404); res.end('{}'); }
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, port: server.address().port, requests })));
}
