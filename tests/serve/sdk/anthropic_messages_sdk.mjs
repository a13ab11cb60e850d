// anthropic_messages_sdk.mjs: the official `@anthropic-ai/sdk` against strata serve's
// /v1/messages and /v1/messages/count_tokens, non-streamed and streamed: messages parse, tools
// reach the prompt, tool_use / tool_result round-trip, the stream follows the SSE event grammar,
// usage equals the server's log and count_tokens, and a repeated prefix reads from the cache; a
// stream with return_progress (strata's ping events carrying prompt_progress) parses.
import { main, check } from './serve_harness.mjs';

const system = [{ type: 'text', text: 'You are a coding agent.' },
  { type: 'text', text: 'Read files before changing them.', cache_control: { type: 'ephemeral' } }];
const tools = [{ name: 'Bash', description: 'Runs a command.',
  input_schema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] } }];

await main(async ({ server, require }) => {
  const mod = require('@anthropic-ai/sdk');
  const Anthropic = mod.default ?? mod.Anthropic ?? mod;
  const client = new Anthropic({ baseURL: server.url, apiKey: 'none', maxRetries: 0 });
  const base = { model: 'tiny', max_tokens: 5, temperature: 0, system,
    messages: [{ role: 'user', content: 'List the files.' }] };

  const bare = await client.messages.create(base);
  check(bare.type === 'message' && bare.role === 'assistant' && Array.isArray(bare.content), 'a message');
  const withTools = await client.messages.create({ ...base, tools });
  const total = (u) => u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens;
  check(total(withTools.usage) > total(bare.usage), 'tool definitions reach the prompt');
  const logged = server.requests().at(-1);
  check(logged.prompt === total(withTools.usage), 'prompt tokens equal the server log');
  check(logged.cached === withTools.usage.cache_read_input_tokens, 'cache reads equal the server log');
  const counted = await client.messages.countTokens({ model: 'tiny', system, tools, messages: base.messages });
  check(counted.input_tokens === total(withTools.usage), 'count_tokens equals the prompt');

  const roundTrip = await client.messages.create({ ...base, tools, messages: [
    { role: 'user', content: 'List the files.' },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'ls' } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'a.txt\nb.txt' }] }] });
  check(total(roundTrip.usage) > total(withTools.usage), 'the tool result is in the prompt');
  check(roundTrip.usage.cache_read_input_tokens > 0, 'the shared prefix is read from the cache');

  const events = [];
  const stream = client.messages.stream({ ...base, tools });
  for await (const event of stream) events.push(event.type);
  const final = await stream.finalMessage();
  check(events[0] === 'message_start' && events.at(-1) === 'message_stop', 'message_start ... message_stop');
  check(events.includes('message_delta'), 'a message_delta');
  check(final.usage.cache_read_input_tokens === total(final.usage) - 1, 'the same prompt is cached');
  const text = (m) => m.content.filter((b) => b.type === 'text').map((b) => b.text).join('');
  check(text(final) === text(withTools), 'streamed text equals the non-streamed reply');

  // return_progress: the raw stream holds ping events with prompt_progress, the first before
  // message_start; the SDK skips them, raw and through its stream helper.
  const progressBody = { ...base, messages: [{ role: 'user', content: 'Show the progress.' }],
    return_progress: true };
  const raw = await fetch(server.url + '/v1/messages', { method: 'POST',
    headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...progressBody, stream: true }) });
  const data = (await raw.text()).split('\n').filter((l) => l.startsWith('data: ')).map((l) => JSON.parse(l.slice(6)));
  const pings = data.filter((e) => e.type === 'ping' && e.prompt_progress);
  check(pings.length >= 2 && data[0].type === 'ping', 'progress pings come first');
  const seen = [];
  for await (const event of await client.messages.create({ ...progressBody, stream: true })) seen.push(event.type);
  check(seen[0] === 'message_start' && seen.at(-1) === 'message_stop' && !seen.includes('ping'),
        'the SDK skips the pings');
  const helper = client.messages.stream(progressBody);
  const message = await helper.finalMessage();
  check(message.type === 'message' && typeof message.stop_reason === 'string',
        'the stream helper parses a stream with progress pings');
  check(text(message) === data.filter((e) => e.type === 'content_block_delta' && e.delta.type === 'text_delta')
    .map((e) => e.delta.text).join(''), 'the same reply');
});
