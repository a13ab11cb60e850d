// index.d.ts: the types of strata for Node (index.js over the N-API addon). Member names of the
// JSON documents are those of the C ABI and the CLI (include/strata.h, docs/assemble.md).

/** The library version, "MAJOR.MINOR.PATCH". */
export function version(): string;
/** True when libstrata holds the llama.cpp parts (accounting, replay, explain need them). */
export function hasLocal(): boolean;

export interface Diagnostic {
  severity: string; kind: string; message: string; path: string; line: number; column: number;
}

export interface CompileOptions { verify?: boolean; force?: boolean; targets?: string[]; }
export interface CompileReport {
  ok: boolean; source: string;
  targets: { id: string; path: string; status: string; bytes: number; detail: string }[];
  diagnostics: Diagnostic[];
}
/** Compiles (verify: checks) the banded AGENTS.md of `root` into every client's file. */
export function compile(root: string, options?: CompileOptions): CompileReport;

export interface DiscoverOptions { project_root?: string; content?: boolean; }
export interface Discovery {
  project_root: string;
  sources: { path: string; origin: string; bytes: number; truncated: boolean; content?: string }[];
  diagnostics: Diagnostic[];
}
/** The instruction files an agent working in `dir` sees, in cascade order. */
export function discover(dir: string, options?: DiscoverOptions): Discovery;

export interface ToolDefinition { name: string; description?: string; input_schema?: unknown; }
export interface ToolCall { id: string; name: string; arguments?: unknown; }
export type HistoryEntry =
  | { role: 'user' | 'context-update'; content: string }
  | { role: 'assistant'; content: string; tool_calls?: ToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string; is_error?: boolean };

/** The context sources (a change is announced at the next safe boundary, not rewritten). */
export interface ContextMembers {
  model?: string;
  model_family?: string;
  persona?: string;
  rules?: string[];
  tools?: ToolDefinition[];
  cwd?: string;
  instructions?: { key: string; text: string }[];
  skills?: { name: string; description?: string; location?: string }[];
  notes?: string;
  plan?: string;
}
/** The volatile data of the next requests (the volatile tail after the newest user message). */
export interface TurnMembers {
  /** RFC 3339, e.g. "2026-11-29T10:00:00Z". */
  now?: string;
  session_state?: Record<string, string>;
  source_state?: Record<string, string>;
  /** One-shot: each id is shown in one request only. */
  signals?: { id: string; text: string }[];
}
export interface SessionDocument extends ContextMembers, TurnMembers {
  history?: HistoryEntry[];
  user?: string;
  options?: {
    layers?: unknown; tool_order?: 'sorted' | 'registration'; max_tokens?: number;
    long_ttl_breakpoints?: number; prompt_cache_key?: string; warn_on_volatility_order?: boolean;
  };
}

export type Provider = 'anthropic' | 'openai-chat' | 'openai-responses';
export interface LayerSpan {
  layer: string; volatility: 'static' | 'session' | 'turn'; source?: string; begin: number; end: number;
}
export interface Breakpoint { offset: number; ttl: '5m' | '1h'; layer: string; }
export interface CacheEvent {
  reason: 'compaction' | 'model-family-switch' | 'persona-changed' | 'tool-surface-changed';
  detail: string; turn: number;
}
export interface Rendered {
  /** The request body, UTF-8 JSON, to send as is. */
  request: Buffer;
  /** Byte offsets into `request`. */
  layers: LayerSpan[];
  breakpoints: Breakpoint[];
  diagnostics: Diagnostic[];
  /** Prefix rebuilds this request is the first to carry. */
  events: CacheEvent[];
}

/** An assembling session: one per conversation; not shared between threads. */
export class Session {
  constructor(document: SessionDocument | string);
  /** Between turns: replaces the members given; the others stay. */
  update(changes: ContextMembers & TurnMembers): void;
  /** Starts a user turn (changed sources are announced first, at a safe boundary). */
  beginTurn(userText: string): void;
  /** Appends an assistant message or a tool result. */
  append(message: HistoryEntry): void;
  /** Replaces the history (e.g. a summary); the next render reports a compaction event. */
  compact(history: HistoryEntry[]): void;
  render(provider?: Provider): Rendered;
  close(): void;
}

export type CacheModel = 'anthropic' | 'openai' | 'deepseek' | 'block-hash' | 'radix';
export interface AccountantOptions {
  /** "auto" (default: the qwen2 vocabulary when llama.cpp and the file are there, else
   * "estimate"), "estimate" (4 bytes per token, no vocabulary), a llama.cpp vocabulary name or a
   * .gguf path (include/strata.h, "Tokenizers"). */
  tokenizer?: 'auto' | 'estimate' | string;
  vocab_dir?: string;
  /** Anthropic: the minimum cacheable prefix instead of the model's documented one. */
  minimum_tokens?: number;
  /** OpenAI / DeepSeek retention in seconds (0: forever). */
  retention_s?: number;
}
export interface AccountedRequest {
  input_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  cache_write_1h_tokens: number;
  uncached_tokens: number;
  /** cache_read_tokens / input_tokens. */
  hit_ratio: number;
  /** Leading tokens equal to the previous request's. */
  shared_tokens: number;
  /** Dollars at the model's default prices. */
  cost: number;
  breakpoints: { block: string; tokens: number; ttl: '5m' | '1h' }[];
  notes: string[];
  /** The tokenizer that counted, e.g. "llama.cpp vocab qwen2". */
  tokenizer: string;
}
/** Accounts each request of a conversation, in order, under a provider's cache model. */
export class Accountant {
  constructor(cacheModel?: CacheModel, options?: AccountantOptions);
  /** `timeS`: seconds on any fixed clock, non-decreasing (decides TTL expiry). */
  account(request: Buffer | string, provider?: Provider, timeS?: number): AccountedRequest;
  close(): void;
}

export interface ReplayOptions {
  format?: 'strata' | 'claude-code' | 'codex' | 'recorded' | 'openhands' | 'swe-agent';
  provider?: CacheModel;
  layout?: 'strata' | 'naive' | 'recorded';
  tokenizer?: string; vocab_dir?: string; model?: string; long_ttl?: number;
}
/** The `strata replay --json` report of a transcript. */
export function replay(transcript: Buffer | string, options?: ReplayOptions): any;
/** Why request b misses the cache request a filled (`strata explain --json`). */
export function explain(a: Buffer | string, b: Buffer | string,
                        options?: { tokenizer?: string; vocab_dir?: string }): any;
