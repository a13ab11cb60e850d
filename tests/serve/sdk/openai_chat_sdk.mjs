// openai_chat_sdk.mjs: the official `openai` SDK against strata serve's /v1/chat/completions,
// non-streamed and streamed: responses parse, tool definitions reach the prompt (more prompt
// tokens with tools), a tool result round-trips, usage equals the server's own log counts, and a
// second request sharing system + tools reports cached tokens.
import { main, check } from './serve_harness.mjs';

const system = 'You are a coding agent in the user\'s project. Read files before changing them.';
const tools = [{ type: 'function', function: { name: 'read_file', description: 'Reads a file.',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } } }];

await main(async ({ server, require }) => {
  const OpenAI = require('openai').default ?? require('openai');
  const client = new OpenAI({ baseURL: server.url + '/v1', apiKey: 'none', maxRetries: 0 });
  const ask = (user, extra = {}) => client.chat.completions.create({
    model: 'tiny', max_tokens: 5, temperature: 0,
    messages: [{ role: 'system', content: system }, { role: 'user', content: user }], ...extra });

  const bare = await ask('Where are the tests?');
  check(bare.object === 'chat.completion' && bare.choices[0].message.role === 'assistant', 'a chat.completion');
  const withTools = await ask('Where are the tests?', { tools });
  check(withTools.usage.prompt_tokens > bare.usage.prompt_tokens, 'tool definitions reach the prompt');
  const logged = server.requests().at(-1);
  check(logged.prompt === withTools.usage.prompt_tokens, 'prompt tokens equal the server log');
  check(logged.cached === withTools.usage.prompt_tokens_details.cached_tokens, 'cached tokens equal the server log');
  check(logged.generated === withTools.usage.completion_tokens, 'completion tokens equal the server log');

  const other = await ask('Rename the helper in util.cc.', { tools });
  check(other.usage.prompt_tokens_details.cached_tokens > 0, 'the shared system + tools part is cached');

  const roundTrip = await client.chat.completions.create({
    model: 'tiny', max_tokens: 5, temperature: 0, tools,
    messages: [
      { role: 'system', content: system },
      { role: 'user', content: 'Read README.md' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function',
        function: { name: 'read_file', arguments: '{"path":"README.md"}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: '# strata\nA library.' },
    ] });
  check(roundTrip.usage.prompt_tokens > withTools.usage.prompt_tokens, 'the tool result is in the prompt');

  const stream = await client.chat.completions.create({
    model: 'tiny', max_tokens: 5, temperature: 0, stream: true, stream_options: { include_usage: true },
    messages: [{ role: 'system', content: system }, { role: 'user', content: 'Where are the tests?' }] });
  let text = '';
  let usage;
  for await (const chunk of stream) {
    if (chunk.choices[0]?.delta?.content) text += chunk.choices[0].delta.content;
    if (chunk.usage) usage = chunk.usage;
  }
  check(text === (bare.choices[0].message.content ?? ''), 'streamed text equals the non-streamed reply');
  check(usage && usage.prompt_tokens === bare.usage.prompt_tokens, 'the stream reports usage');
  check(usage.prompt_tokens_details.cached_tokens === usage.prompt_tokens - 1, 'the same prompt is cached');
});
