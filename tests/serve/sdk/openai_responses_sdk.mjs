// openai_responses_sdk.mjs: the official `openai` SDK against strata serve's /v1/responses, as
// Codex uses it (instructions, developer and user input items, function tools, function_call and
// function_call_output items, store: false), non-streamed and streamed: responses parse, tools
// reach the prompt, usage equals the server's log, cached tokens are reported; a stream cut by
// max_output_tokens ends with response.incomplete (OpenAI's event), which the SDK's stream helper
// takes as the end, resolving to the same incomplete response the non-streamed request gets; a
// stream with llama-server's return_progress (response.in_progress events carrying
// prompt_progress) parses.
import { main, check } from './serve_harness.mjs';

const tools = [{ type: 'function', name: 'shell', description: 'Runs a command.',
  parameters: { type: 'object', properties: { cmd: { type: 'string' } }, required: ['cmd'] } }];

await main(async ({ server, require }) => {
  const OpenAI = require('openai').default ?? require('openai');
  const client = new OpenAI({ baseURL: server.url + '/v1', apiKey: 'none', maxRetries: 0 });
  const input = [
    { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'Follow AGENTS.md.' }] },
    { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'List the files.' }] }];
  const base = { model: 'tiny', instructions: 'You are Codex.', input, max_output_tokens: 5,
    temperature: 0, store: false, reasoning: { effort: 'low' }, prompt_cache_key: 's1' };

  const bare = await client.responses.create(base);
  check(bare.object === 'response' && bare.status === 'incomplete', 'a response cut by max_output_tokens');
  check(bare.incomplete_details?.reason === 'max_output_tokens', 'incomplete_details names the limit');
  const withTools = await client.responses.create({ ...base, tools });
  check(withTools.usage.input_tokens > bare.usage.input_tokens, 'tools reach the prompt');
  const logged = server.requests().at(-1);
  check(logged.prompt === withTools.usage.input_tokens, 'input tokens equal the server log');
  check(logged.cached === withTools.usage.input_tokens_details.cached_tokens, 'cached tokens equal the server log');

  const roundTrip = await client.responses.create({ ...base, tools, input: [...input,
    { type: 'function_call', call_id: 'c1', name: 'shell', arguments: '{"cmd":"ls"}' },
    { type: 'function_call_output', call_id: 'c1', output: 'a.txt' }] });
  check(roundTrip.usage.input_tokens > withTools.usage.input_tokens, 'the call output is in the prompt');
  check(roundTrip.usage.input_tokens_details.cached_tokens > 0, 'the shared prefix is cached');

  const types = [];
  let completed;
  const stream = await client.responses.create({ ...base, tools, stream: true });
  for await (const event of stream) {
    types.push(event.type);
    if (event.type === 'response.incomplete') completed = event.response;
  }
  check(types[0] === 'response.created' && types.at(-1) === 'response.incomplete' &&
        !types.includes('response.completed'), `created ... incomplete: ${types.join(' ')}`);
  check(completed.status === 'incomplete' && completed.incomplete_details?.reason === 'max_output_tokens',
        'the incomplete event carries the incomplete response');
  check(completed.usage.input_tokens_details.cached_tokens === completed.usage.input_tokens - 1,
        'the same prompt is cached');
  check(completed.output_text === undefined || typeof completed.output_text === 'string', 'output parses');

  // return_progress: the raw stream holds response.in_progress events with prompt_progress, and
  // the SDK parses it, raw and through its stream helper, to the same response.
  const progressBody = { ...base, input: [...input, { type: 'message', role: 'user',
    content: [{ type: 'input_text', text: 'Show the progress.' }] }], return_progress: true };
  const raw = await fetch(server.url + '/v1/responses', { method: 'POST',
    headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...progressBody, stream: true }) });
  const progressEvents = (await raw.text()).split('\n').filter((l) => l.startsWith('data: '))
    .map((l) => JSON.parse(l.slice(6))).filter((e) => e.prompt_progress);
  check(progressEvents.length >= 2 && progressEvents.every((e) => e.type === 'response.in_progress'),
        'progress events are response.in_progress events');
  const seen = [];
  let viaCreate;
  for await (const event of await client.responses.create({ ...progressBody, stream: true })) {
    seen.push(event.type);
    if (event.type === 'response.incomplete') viaCreate = event.response;
  }
  check(seen[0] === 'response.created' && seen.filter((t) => t === 'response.created').length === 1,
        'one response.created');
  check(seen.filter((t) => t === 'response.in_progress').length === progressEvents.length,
        'the SDK hands over every progress event');
  const helper = client.responses.stream(progressBody);
  for await (const event of helper) void event;
  const viaHelper = await helper.finalResponse();
  const textOf = (r) => r.output.filter((i) => i.type === 'message')
    .flatMap((i) => i.content.map((p) => p.text)).join('');
  check(viaHelper.status === 'incomplete' && viaHelper.status === viaCreate.status &&
        textOf(viaHelper) === textOf(viaCreate),
        `the stream helper parses a stream with progress events: ${JSON.stringify(viaHelper)}`);
  const whole = await client.responses.create(progressBody);
  check(whole.status === viaHelper.status && textOf(whole) === textOf(viaHelper) &&
        whole.usage.output_tokens === viaHelper.usage.output_tokens,
        'streamed and non-streamed give the same incomplete response');
});
