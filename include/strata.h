/* strata.h: the C ABI of libstrata (compile, discover, assemble and render, replay, explain, local
 * sessions), for programs in C and for bindings (python/strata uses it through ctypes).
 *
 * Conventions, as in leveldb's c.h:
 * - Handles are opaque; each strata_X_create has a strata_X_destroy (NULL is accepted).
 * - The last argument of a function that can fail is `char** errptr`. On entry *errptr must be
 *   NULL. On success it stays NULL; on failure it is set to a message the caller releases with
 *   strata_free (the message names the file, line and what to do, as the CLI prints it:
 *   "path:line:col: error: message"), and the function returns NULL / 0.
 * - Rich structures travel as JSON text (UTF-8, NUL-terminated) in and out. Every returned
 *   string or buffer is malloc'd, owned by the caller and released with strata_free.
 * - A NULL handle passed to a function that uses it is an error (reported in *errptr).
 * - Strings passed in are read during the call only; the library keeps no pointer to them.
 * - Functions are safe to call from several threads on different handles; one handle is used by
 *   one thread at a time.
 * The JSON shapes are those of the CLI's --json output and input files (docs/compile.md,
 * docs/discover.md, docs/assemble.md, docs/replay.md, docs/explain.md, docs/chat.md). */
#ifndef STRATA_C_H_
#define STRATA_C_H_

#include <stddef.h>

#include "strata/build_config.h"

#ifdef __cplusplus
extern "C" {
#endif

/* libstrata.so is built with hidden visibility; these declarations are what it exports. */
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility push(default)
#endif

/* ---- Memory and version ------------------------------------------------------------------ */

/* Releases a string, buffer or error message this library returned. NULL is a no-op. */
void strata_free(void* ptr);

/* The library version, "MAJOR.MINOR.PATCH" (static storage: do not free). */
const char* strata_version(void);

/* 1 when this library holds the llama.cpp parts (local sessions, vocabulary tokenizers), else 0:
 * then strata_local_session_* fail with "not available", and accounting, replay and explain count
 * with the "estimate" tokenizer (Tokenizers below). */
int strata_has_local(void);

/* ---- Compile (docs/compile.md) ------------------------------------------------------------ */

/* Compiles the banded AGENTS.md of `root_dir` (a directory with strata.toml or AGENTS.md) into
 * every configured client's file.
 * options_json: NULL or an object with optional members
 *   "verify" (bool: write nothing, report stale or missing targets), "force" (bool: overwrite
 *   hand-written files), "targets" (array of target ids: only these).
 * Returns the report JSON: {"ok": bool, "targets": [{"id", "path", "status"}, ...],
 *   "diagnostics": [{"severity", "kind", "message", "path", "line", "column"}, ...]}; "ok" is
 *   false when a verify found drift or a target was refused (not an error: the report says why).
 * Errors: malformed options, an unknown target id, an unreadable root or configuration. */
char* strata_compile(const char* root_dir, const char* options_json, char** errptr);

/* ---- Discover (docs/discover.md) ---------------------------------------------------------- */

/* The instruction files an agent working in `dir` sees, in cascade order.
 * options_json: NULL or an object with optional members "project_root" (string: stop the walk
 *   here instead of at the nearest .git), "content" (bool: include each source's text).
 * Returns {"sources": [{"path", "origin", "bytes", "content"?}, ...], "diagnostics": [...]}.
 * Errors: `dir` missing or not a directory, malformed options. */
char* strata_discover(const char* dir, const char* options_json, char** errptr);

/* ---- Assembling session (docs/assemble.md) ------------------------------------------------ */

typedef struct strata_session_t strata_session_t;

/* Creates a session from a session document: the JSON of a `strata assemble --session` file
 * (docs/assemble.md: "model", "persona", "rules", "tools", "instructions", "skills", "notes",
 * "cwd", "now", "history", "user", "options", ...). Its context and turn members are the inputs
 * of every later render; "user", when non-empty, begins the first turn.
 * Returns the handle (release with strata_session_destroy). Errors: malformed JSON (line and
 * column), a bad value (unknown role, tool result without its call, bad layer order). */
strata_session_t* strata_session_create(const char* session_json, char** errptr);

void strata_session_destroy(strata_session_t* session);

/* Begins a user turn with `user_text` (UTF-8): changed context sources are announced first at a
 * safe boundary. Returns 1 on success, 0 on error (a tool call of the last assistant message
 * still has no result). */
int strata_session_begin_turn(strata_session_t* session, const char* user_text, char** errptr);

/* Appends a message the harness received: an assistant message or a tool result, as one history
 * entry of the session document ({"role": "assistant", "content", "tool_calls"?} or
 * {"role": "tool", "tool_call_id", "content"}). Returns 1 on success, 0 on error (malformed
 * message, a user message (use begin_turn), a tool result that answers no call). */
int strata_session_append(strata_session_t* session, const char* message_json, char** errptr);

/* Between turns: replaces the context sources and the volatile data of the next requests.
 * update_json: an object with any of the session document's members
 *   context: "model", "model_family", "persona", "rules", "tools", "cwd", "instructions",
 *            "skills", "notes", "plan";
 *   turn:    "now" (RFC 3339), "session_state", "source_state" (objects of strings),
 *            "signals" ([{"id", "text"}]: one-shot, each id shown in one request only).
 * A member present replaces the session's value; one absent keeps it. What reaches the model
 * follows assemble.h: a changed instruction, skill, note, plan or cwd is announced as one
 * context-update message at the next safe boundary (the next strata_session_begin_turn after a
 * completed turn), never by rewriting the cached system blocks; a new tool is listed in the
 * volatile tail until then; `now`, the states and signals ride in the volatile tail after the
 * newest user message; a removed or redefined tool, a changed persona or rules, or another model
 * family rebuilds the prefix (render's "events" says so).
 * Returns 1 on success, 0 on error: malformed JSON, an unknown member (the message names the
 * closest one), a member of the wrong type, a bad `now`, "history"/"user" (use begin_turn and
 * append) or "options" (fixed at create). On error the session is unchanged. */
int strata_session_update(strata_session_t* session, const char* update_json, char** errptr);

/* Compaction: replaces the history with `history_json` (an array of history entries, e.g. one
 * user message holding a summary); the next render rebuilds the prefix from the current sources
 * and reports a "compaction" event. Returns 1 on success, 0 on error (malformed history). */
int strata_session_compact(strata_session_t* session, const char* history_json, char** errptr);

/* Renders the request for `provider` ("anthropic", "openai-chat", "openai-responses").
 * Returns the request body (malloc'd, NUL-terminated; *request_len, when not NULL, receives its
 * length in bytes). *layers_json, when not NULL, receives a malloc'd
 * {"layers": [{"layer", "volatility", "begin", "end", "source"?}, ...],
 *  "breakpoints": [{"offset", "ttl", "layer"}, ...], "diagnostics": [...],
 *  "events": [{"reason", "detail", "turn"}, ...]}
 * (byte offsets into the request; events: the prefix rebuilds this request is the first to
 * carry, reason "compaction", "model-family-switch", "persona-changed" or
 * "tool-surface-changed"). The same state renders the same bytes.
 * Errors: an unknown provider. */
char* strata_session_render(strata_session_t* session, const char* provider, size_t* request_len,
                            char** layers_json, char** errptr);

/* ---- Tokenizers (accounting, replay and explain) ------------------------------------------- *
 * The options' "tokenizer" member says what counts tokens:
 *   "auto" (the default): the qwen2 llama.cpp vocabulary when this build has llama.cpp
 *     (strata_has_local()) and the file ggml-vocab-qwen2.gguf is found, in "vocab_dir" when given
 *     (then it must be there), else in $STRATA_VOCAB_DIR or the llama.cpp tree of the build;
 *     otherwise "estimate";
 *   "estimate": no vocabulary: whole UTF-8 characters packed into tokens of at most 4 bytes
 *     (strata/accounting.h, MakeEstimateTokenizer): counts of the right size, exact prefix and
 *     cache structure; works in every build;
 *   a vocabulary name ("qwen2", "gpt-2", "llama-bpe", "o200k_base", ...; ggml-vocab-<name>.gguf in
 *     "vocab_dir" or the default directory) or a .gguf path: needs llama.cpp.
 * Every result names the tokenizer it counted with ("tokenizer").
 * Errors: a vocabulary name in a build without llama.cpp, a vocabulary file that is not found
 * (naming the ones available). */

/* ---- Cache accounting (docs/replay.md, "Cache models") ---------------------------------- */

typedef struct strata_accountant_t strata_accountant_t;

/* An accountant of one conversation's requests under the prompt cache of `cache_model`
 * ("anthropic", "openai", "deepseek", "block-hash", "radix"), with the rules `strata replay`
 * applies: it remembers what each request cached, so account every request of the conversation,
 * in order, as it is sent.
 * options_json: NULL or {"tokenizer" and "vocab_dir" (Tokenizers above; default "auto"),
 *   "minimum_tokens" (int: anthropic's minimum cacheable prefix instead of the model's
 *   documented one), "retention_s" (number: openai/deepseek retention; 0 forever)}.
 * Errors: an unknown cache model, a tokenizer that cannot be had (Tokenizers above). */
strata_accountant_t* strata_accountant_create(const char* cache_model, const char* options_json,
                                              char** errptr);

void strata_accountant_destroy(strata_accountant_t* accountant);

/* Accounts one request body (`request`, `request_len` bytes) rendered for `provider`
 * ("anthropic", "openai-chat", "openai-responses") and sent at `time_s` seconds on any fixed
 * clock (non-decreasing; it decides what a TTL expired). The body is read as the provider caches
 * it (its canonical prompt), tokenized block by block, and run through the cache model.
 * Returns {"input_tokens", "cache_read_tokens", "cache_write_tokens", "cache_write_1h_tokens",
 *   "uncached_tokens", "hit_ratio" (read / input), "shared_tokens" (leading tokens equal to the
 *   previous request's), "cost" (dollars at the model's default prices),
 *   "breakpoints": [{"block", "tokens", "ttl"}, ...] (the request's cache_control breakpoints,
 *   as prefix lengths in tokens), "notes": [...] (e.g. a breakpoint beyond the fourth ignored),
 *   "tokenizer": the name of the tokenizer that counted}.
 * Errors: a body that is not JSON or has a prompt member of the wrong shape (naming it), an
 * unknown provider. */
char* strata_accountant_account(strata_accountant_t* accountant, const char* request,
                                size_t request_len, const char* provider, double time_s,
                                char** errptr);

/* ---- Replay and explain (docs/replay.md, docs/explain.md) --------------------------------- */

/* Replays a transcript (`transcript` bytes, `transcript_len` long) read as `format` ("strata",
 * "claude-code", "codex") under the cache model of `provider` ("anthropic", "openai",
 * "deepseek", "block-hash", "radix").
 * options_json: NULL or {"layout": "strata"|"naive", "tokenizer" and "vocab_dir" (Tokenizers
 *   above; default "auto"), "model", "long_ttl" (int)}.
 * Returns the report JSON of `strata replay --json` (turns and totals, hit ratio per turn, the
 * tokenizer's name). Errors: an unknown format or provider, a transcript that does not parse or
 * holds no request, a tokenizer that cannot be had. */
char* strata_replay(const char* transcript, size_t transcript_len, const char* format,
                    const char* provider, const char* options_json, char** errptr);

/* Explains why request B misses the cache request A filled: each of `a` / `b` is a request body
 * or a {"request", "layers", "breakpoints"} document (strata_session_render's request, or
 * `strata assemble --with-layers`), of length a_len / b_len bytes.
 * options_json: NULL or {"tokenizer", "vocab_dir"} as for strata_replay.
 * Returns the explanation JSON of `strata explain --json` (first differing byte and token, the
 * layer that owns it, the breakpoints it invalidates).
 * Errors: input that is not a request, a tokenizer that cannot be had. */
char* strata_explain(const char* a, size_t a_len, const char* b, size_t b_len,
                     const char* options_json, char** errptr);

/* ---- Local sessions (docs/chat.md; only when strata_has_local()) -------------------------- */

typedef struct strata_local_session_t strata_local_session_t;

/* Loads the GGUF model at `model_path` and creates a draft session on it (no prefill yet).
 * options_json: NULL or {"project": directory whose AGENTS.md joins the prefix,
 *   "checkpoint_dir": KV checkpoint store (default $STRATA_CACHE_DIR/kv, else
 *   ${XDG_CACHE_HOME:-~/.cache}/strata/kv; the older $STRATA_CHECKPOINT_DIR still works), "system":
 * extra system instructions, "ctx": context size in tokens, "max_tokens": tokens to generate per
 * turn (default 0: prompt only)}. Errors: not available without llama.cpp, a missing or unreadable
 * model. An unwritable store degrades (answers are given, nothing is stored). */
strata_local_session_t* strata_local_session_create(const char* model_path,
                                                    const char* options_json, char** errptr);

void strata_local_session_destroy(strata_local_session_t* session);

/* Submits a user message (UTF-8, not empty) and runs the model on it.
 * Returns the turn report JSON: {"turn", "checkpoint": "none"|"hit"|"miss"|"rebuilt", "key",
 *   "stored", "prefix_tokens", "suffix_tokens", "restore_ms", "prefill_ms", "saved_ms",
 *   "first_token_ms", "title", "reply", "generated_tokens"} (times in wall-clock ms).
 * Errors: an empty message, a context too small for the prompt. */
char* strata_local_session_submit(strata_local_session_t* session, const char* message,
                                  char** errptr);

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* STRATA_C_H_ */
