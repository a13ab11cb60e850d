// stub_upstream.mjs: a canned provider for the `strata record` tests (no network, no model).
//
// Listens on 127.0.0.1 (a free port; prints "listening <port>" on stdout) and answers the three
// APIs strata records with fixed content and fixed usage, streamed (SSE) when the request says
// "stream": true, else as one JSON body:
//   POST .../messages           Anthropic Messages
//   POST .../chat/completions   OpenAI Chat Completions
//   POST .../responses          OpenAI Responses
// A request that offers a shell tool and carries no tool result yet is answered with one call of
// that tool (`echo hi`); any other with a short text. The usage of each answer is in
// stub_usage.json beside this file, so a test can compare what strata recorded with what was sent.
// With --bodies DIR, each request's raw body is written to DIR/<n>.body and its headers to
// DIR/<n>.headers.json (n = 1, 2, ... in arrival order).
import fs from "node:fs";
import http from "node:http";
import path from "node:path";

const USAGE = JSON.parse(fs.readFileSync(new URL("./stub_usage.json", import.meta.url), "utf8"));

const bodiesIndex = process.argv.indexOf("--bodies");
const bodiesDir = bodiesIndex > 0 ? process.argv[bodiesIndex + 1] : null;
let served = 0;

function sse(res, events) {
  res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
  for (const [name, data] of events) {
    res.write((name ? `event: ${name}\n` : "") + `data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`);
  }
  res.end();
}

function json(res, status, body) {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
}

// --- Anthropic Messages -------------------------------------------------------------------------

function anthropicHasToolResult(body) {
  return (body.messages || []).some((m) => Array.isArray(m.content) && m.content.some((b) => b.type === "tool_result"));
}

function anthropic(body, res) {
  const bash = (body.tools || []).find((t) => t.name === "Bash");
  const callTool = bash && !anthropicHasToolResult(body);
  const usage = callTool ? USAGE.anthropic_tool : USAGE.anthropic_text;
  const block = callTool
    ? { type: "tool_use", id: "toolu_stub_1", name: "Bash", input: { command: "echo hi", description: "Print hi" } }
    : { type: "text", text: "The command printed hi." };
  const message = { id: "msg_stub", type: "message", role: "assistant", model: body.model || "stub",
    stop_reason: callTool ? "tool_use" : "end_turn", stop_sequence: null };
  if (!body.stream) return json(res, 200, { ...message, content: [block], usage });
  const start = { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } };
  const events = [["message_start", { type: "message_start", message: start }]];
  if (callTool) {
    events.push(["content_block_start", { type: "content_block_start", index: 0, content_block: { ...block, input: {} } }]);
    events.push(["content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) } }]);
  } else {
    events.push(["content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }]);
    events.push(["content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: block.text } }]);
  }
  events.push(["content_block_stop", { type: "content_block_stop", index: 0 }]);
  events.push(["message_delta", { type: "message_delta", delta: { stop_reason: message.stop_reason, stop_sequence: null }, usage: { output_tokens: usage.output_tokens } }]);
  events.push(["message_stop", { type: "message_stop" }]);
  sse(res, events);
}

// --- OpenAI Chat Completions --------------------------------------------------------------------

function chat(body, res) {
  const text = "hello from the stub";
  const base = { id: "chatcmpl-stub", object: "chat.completion.chunk", created: 1, model: body.model || "stub" };
  if (!body.stream) {
    return json(res, 200, { ...base, object: "chat.completion", usage: USAGE.chat_text,
      choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }] });
  }
  sse(res, [
    [null, { ...base, choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }] }],
    [null, { ...base, choices: [{ index: 0, delta: { content: text }, finish_reason: null }] }],
    [null, { ...base, choices: [{ index: 0, delta: {}, finish_reason: "stop" }] }],
    [null, { ...base, choices: [], usage: USAGE.chat_text }],
    [null, "[DONE]"],
  ]);
}

// --- OpenAI Responses ---------------------------------------------------------------------------

// The arguments of one `echo hi` call in the shape the tool's schema asks for.
function shellArguments(tool) {
  const props = (tool.parameters && tool.parameters.properties) || {};
  if (props.cmd) return { cmd: "echo hi" };
  if (props.command && props.command.type === "array") return { command: ["bash", "-lc", "echo hi"] };
  return { command: "echo hi" };
}

function responses(body, res) {
  const input = Array.isArray(body.input) ? body.input : [];
  const done = input.some((item) => item.type === "function_call_output");
  const tool = (body.tools || []).find((t) => t.type === "function" && /shell|exec_command/.test(t.name || ""));
  const callTool = tool && !done;
  const usage = callTool ? USAGE.responses_tool : USAGE.responses_text;
  const item = callTool
    ? { type: "function_call", id: "fc_stub_1", call_id: "call_stub_1", name: tool.name, arguments: JSON.stringify(shellArguments(tool)), status: "completed" }
    : { type: "message", id: "msg_stub_1", role: "assistant", status: "completed", content: [{ type: "output_text", text: "The command printed hi.", annotations: [] }] };
  const response = { id: "resp_stub", object: "response", created_at: 1, status: "completed", model: body.model || "stub", output: [item], usage };
  if (!body.stream) return json(res, 200, response);
  const pending = { ...response, status: "in_progress", output: [], usage: null };
  const events = [["response.created", { type: "response.created", sequence_number: 0, response: pending }],
    ["response.in_progress", { type: "response.in_progress", sequence_number: 1, response: pending }]];
  if (callTool) {
    events.push(["response.output_item.added", { type: "response.output_item.added", output_index: 0, item: { ...item, arguments: "", status: "in_progress" } }]);
    events.push(["response.function_call_arguments.delta", { type: "response.function_call_arguments.delta", item_id: item.id, output_index: 0, delta: item.arguments }]);
    events.push(["response.function_call_arguments.done", { type: "response.function_call_arguments.done", item_id: item.id, output_index: 0, arguments: item.arguments }]);
  } else {
    const text = item.content[0].text;
    events.push(["response.output_item.added", { type: "response.output_item.added", output_index: 0, item: { ...item, status: "in_progress", content: [] } }]);
    events.push(["response.content_part.added", { type: "response.content_part.added", item_id: item.id, output_index: 0, content_index: 0, part: { type: "output_text", text: "", annotations: [] } }]);
    events.push(["response.output_text.delta", { type: "response.output_text.delta", item_id: item.id, output_index: 0, content_index: 0, delta: text }]);
    events.push(["response.output_text.done", { type: "response.output_text.done", item_id: item.id, output_index: 0, content_index: 0, text }]);
    events.push(["response.content_part.done", { type: "response.content_part.done", item_id: item.id, output_index: 0, content_index: 0, part: item.content[0] }]);
  }
  events.push(["response.output_item.done", { type: "response.output_item.done", output_index: 0, item }]);
  events.push(["response.completed", { type: "response.completed", response }]);
  sse(res, events);
}

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const raw = Buffer.concat(chunks);
    served += 1;
    if (bodiesDir) {
      fs.writeFileSync(path.join(bodiesDir, `${served}.body`), raw);
      fs.writeFileSync(path.join(bodiesDir, `${served}.headers.json`), JSON.stringify({ method: req.method, url: req.url, headers: req.headers }));
    }
    const route = req.url.split("?")[0].replace(/\/+$/, "");
    if (req.method !== "POST") return json(res, 404, { error: { type: "not_found", message: `stub: no ${req.method} ${route}` } });
    let body;
    try {
      body = JSON.parse(raw.toString("utf8"));
    } catch (e) {
      return json(res, 400, { error: { type: "invalid_request_error", message: "stub: body is not JSON" } });
    }
    if (route.endsWith("/chat/completions")) return chat(body, res);
    if (route.endsWith("/responses")) return responses(body, res);
    if (route.endsWith("/messages/count_tokens")) return json(res, 200, { input_tokens: 100 });
    if (route.endsWith("/messages")) return anthropic(body, res);
    json(res, 404, { error: { type: "not_found", message: `stub: no route ${route}` } });
  });
});
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`listening ${server.address().port}\n`);
});
// Bounded in time: a test that forgets to stop the stub does not leave it running.
setTimeout(() => process.exit(0), Number(process.env.STUB_LIFETIME_MS || 300000)).unref();
