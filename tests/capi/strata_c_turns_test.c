/* strata_c_turns_test.c: the C ABI calls a harness makes between turns and after rendering
 * (include/strata.h): strata_session_update (instructions, tools, now, session state, signals),
 * strata_session_compact and the render's events, strata_accountant_* (the cache accounting of
 * rendered requests). Expected values follow docs/assemble.md and docs/replay.md's rules.
 * argv[1]: llama.cpp's vocabulary directory, or "" (then only the "estimate" tokenizer counts). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c_check.h"
#include "strata.h"

/* Checks that an error message naming `needle` arrived; frees it. */
static void ExpectError(char** err, const char* needle) {
  CHECK(*err != NULL);
  if (*err != NULL && needle != NULL && strstr(*err, needle) == NULL) {
    fprintf(stderr, "error '%s' lacks '%s'\n", *err, needle);
    failures++;
  }
  strata_free(*err);
  *err = NULL;
}

static const char kSession[] =
    "{\"model\": \"claude-sonnet-4-5\", \"persona\": \"You are a careful coding agent.\","
    " \"tools\": [{\"name\": \"read\", \"description\": \"Reads a file.\","
    "  \"input_schema\": {\"type\": \"object\"}}],"
    " \"instructions\": [{\"key\": \"AGENTS.md\", \"text\": \"# Project\\n\\nRun make test.\\n\"}],"
    " \"user\": \"Read README.md\"}";

/* The rendered request of `s` for anthropic; *layers receives the layer map. */
static char* Render(strata_session_t* s, char** layers) {
  char* err = NULL;
  size_t len = 0;
  char* out = strata_session_render(s, "anthropic", &len, layers, &err);
  CHECK(err == NULL && out != NULL);
  strata_free(err);
  return out;
}

/* Where `needle` is in `hay`, or -1. */
static long Find(const char* hay, const char* needle) {
  const char* at = hay != NULL ? strstr(hay, needle) : NULL;
  return at != NULL ? (long)(at - hay) : -1;
}

static void Reply(strata_session_t* s, const char* text) {
  char* err = NULL;
  char message[256];
  snprintf(message, sizeof message, "{\"role\": \"assistant\", \"content\": \"%s\"}", text);
  CHECK(strata_session_append(s, message, &err) == 1);
  strata_free(err);
}

/* `now`, session state and signals ride in the volatile tail after the newest user message; a
 * signal is shown in one request only; the tail is not kept in the history. */
static void TestUpdateTail(void) {
  char* err = NULL;
  strata_session_t* s = strata_session_create(kSession, &err);
  CHECK(s != NULL && err == NULL);
  if (s == NULL) return;
  CHECK(
      strata_session_update(s,
                            "{\"now\": \"2026-11-29T10:00:00Z\","
                            " \"session_state\": {\"permission-mode\": \"plan\"},"
                            " \"signals\": [{\"id\": \"s1\", \"text\": \"mode changed to plan\"}]}",
                            &err) == 1);
  CHECK(err == NULL);
  char* one = Render(s, NULL);
  long user = Find(one, "Read README.md");
  long now = Find(one, "date-time: 2026-11-29T10:00:00Z");
  CHECK(user > 0 && now > user);
  CHECK(Find(one, "session-state: permission-mode=plan") > now);
  CHECK(Find(one, "signal: mode changed to plan") > now);
  Reply(s, "It says hello.");
  CHECK(strata_session_update(s, "{\"now\": \"2026-11-29T10:05:00Z\"}", &err) == 1);
  CHECK(strata_session_begin_turn(s, "Thanks", &err) == 1);
  char* two = Render(s, NULL);
  CHECK(Find(two, "date-time: 2026-11-29T10:05:00Z") > Find(two, "Thanks"));
  CHECK(Find(two, "10:00:00Z") < 0);            /* the old tail is not in the history */
  CHECK(Find(two, "mode changed to plan") < 0); /* shown once */
  CHECK(Find(two, "permission-mode=plan") > 0); /* state stays until replaced */
  strata_free(one);
  strata_free(two);
  strata_session_destroy(s);
}

/* A changed instruction file is announced at the next turn as a context-update diff; system
 * block 2 keeps the old text (the cached prefix stays); a new tool rides in the tail until then. */
static void TestUpdateInstructionsAndTools(void) {
  char* err = NULL;
  strata_session_t* s = strata_session_create(kSession, &err);
  if (s == NULL) return;
  char* one = Render(s, NULL);
  Reply(s, "Done.");
  CHECK(strata_session_update(s,
                              "{\"instructions\": [{\"key\": \"AGENTS.md\", \"text\":"
                              " \"# Project\\n\\nRun make test.\\nNew rule line.\\n\"}]}",
                              &err) == 1);
  CHECK(strata_session_begin_turn(s, "Go on", &err) == 1);
  char* layers = NULL;
  char* two = Render(s, &layers);
  long update = Find(two, "<context-update epoch=\\\"1\\\">");
  CHECK(update > 0);
  CHECK(Find(two, "## instructions:AGENTS.md (modified)") > update);
  CHECK(Find(two, "+New rule line.") > update);
  CHECK(Find(two, "Go on") > update);
  /* The system blocks are those of turn 1: turn 1 up to its last breakpoint is a prefix. */
  long cut = Find(one, "\"content\":[{\"type\":\"text\",\"text\":\"Read README.md\"");
  CHECK(cut > 0 && strncmp(one, two, (size_t)cut) == 0);
  CHECK(layers != NULL && strstr(layers, "\"layer\":\"epoch\"") != NULL);
  CHECK(layers != NULL && strstr(layers, "\"events\":[]") != NULL);
  strata_free(layers);

  /* A tool that appears inside a tool-call streak is listed in the tail, not in the tools field;
   * the next safe boundary announces it. */
  Reply(s, "Done again.");
  CHECK(strata_session_begin_turn(s, "Search", &err) == 1);
  CHECK(strata_session_append(s,
                              "{\"role\": \"assistant\", \"content\": \"\", \"tool_calls\":"
                              " [{\"id\": \"t1\", \"name\": \"read\"}]}",
                              &err) == 1);
  CHECK(strata_session_append(
            s, "{\"role\": \"tool\", \"tool_call_id\": \"t1\", \"content\": \"x\"}", &err) == 1);
  CHECK(strata_session_update(s,
                              "{\"tools\": [{\"name\": \"read\", \"description\": \"Reads a "
                              "file.\", \"input_schema\": {\"type\": \"object\"}},"
                              " {\"name\": \"grep\", \"description\": \"Searches.\"}]}",
                              &err) == 1);
  char* three = Render(s, NULL);
  long tail = Find(three, "<context-tail>");
  CHECK(tail > 0 && Find(three, "tool-available: {") > tail);
  CHECK(Find(three, "grep") > tail); /* not in the tools field, which comes first */
  CHECK(strncmp(one, three, (size_t)cut) == 0);
  Reply(s, "Found it.");
  CHECK(strata_session_begin_turn(s, "Thanks", &err) == 1);
  char* four = Render(s, NULL);
  CHECK(Find(four, "## tool:grep (added)") > 0);
  CHECK(Find(four, "tool-available") < 0);
  strata_free(four);
  strata_free(one);
  strata_free(two);
  strata_free(three);
  strata_session_destroy(s);
}

/* Refusals: no partial update, each error names the member and what to do. */
static void TestUpdateRefusals(void) {
  char* err = NULL;
  strata_session_t* s = strata_session_create(kSession, &err);
  if (s == NULL) return;
  char* before = Render(s, NULL);
  CHECK(strata_session_update(s, "{\"now\": \"yesterday\", \"notes\": \"x\"}", &err) == 0);
  ExpectError(&err, "RFC 3339");
  CHECK(strata_session_update(s, "{\"nots\": \"x\"}", &err) == 0);
  ExpectError(&err, "did you mean 'notes'");
  CHECK(strata_session_update(s, "{\"user\": \"x\"}", &err) == 0);
  ExpectError(&err, "strata_session_begin_turn");
  CHECK(strata_session_update(s, "{\"options\": {}}", &err) == 0);
  ExpectError(&err, "fixed when the session is created");
  CHECK(strata_session_update(s, "[1]", &err) == 0);
  ExpectError(&err, "not a JSON object");
  CHECK(strata_session_update(NULL, "{}", &err) == 0);
  ExpectError(&err, "NULL");
  char* after = Render(s, NULL);
  CHECK(strcmp(before, after) == 0); /* nothing of a refused update was applied */
  strata_free(before);
  strata_free(after);
  strata_session_destroy(s);
}

/* A changed persona and a compaction rebuild the prefix; render reports each as an event. */
static void TestEvents(void) {
  char* err = NULL;
  strata_session_t* s = strata_session_create(kSession, &err);
  if (s == NULL) return;
  char* layers = NULL;
  strata_free(Render(s, &layers));
  CHECK(layers != NULL && strstr(layers, "\"events\":[]") != NULL);
  strata_free(layers);
  Reply(s, "Done.");
  CHECK(strata_session_update(s, "{\"persona\": \"You are a terse agent.\"}", &err) == 1);
  CHECK(strata_session_begin_turn(s, "Next", &err) == 1);
  char* two = Render(s, &layers);
  CHECK(Find(two, "You are a terse agent.") > 0);
  CHECK(layers != NULL && strstr(layers, "\"reason\":\"persona-changed\"") != NULL);
  strata_free(layers);
  strata_free(two);
  CHECK(strata_session_compact(s, "[{\"role\": \"user\", \"content\": \"Summary: read README.\"}]",
                               &err) == 1);
  char* three = Render(s, &layers);
  CHECK(Find(three, "Summary: read README.") > 0 && Find(three, "Next") < 0);
  CHECK(layers != NULL && strstr(layers, "\"reason\":\"compaction\"") != NULL);
  strata_free(layers);
  strata_free(three);
  CHECK(strata_session_compact(s, "{\"role\": \"user\"}", &err) == 0);
  ExpectError(&err, "not a JSON array");
  CHECK(strata_session_compact(s, "[{\"role\": \"robot\"}]", &err) == 0);
  ExpectError(&err, "robot");
  strata_session_destroy(s);
}

/* Reads the integer member `key` of a flat JSON report. */
static long Member(const char* json, const char* key) {
  char pattern[64];
  snprintf(pattern, sizeof pattern, "\"%s\":", key);
  const char* at = json != NULL ? strstr(json, pattern) : NULL;
  return at != NULL ? strtol(at + strlen(pattern), NULL, 10) : -1;
}

/* Three turns under Anthropic's cache model with the minimum cacheable prefix lowered to 1 token,
 * counted with the tokenizer `options` name (`tokenizer_name` starts the result's "tokenizer"):
 * turn 1 reads nothing and writes up to its last breakpoint; turn 2 reads what turn 1 wrote at
 * that breakpoint (a prefix of turn 2); the counts add up. */
static void TestAccountant(const char* options, const char* tokenizer_name) {
  char* err = NULL;
  strata_accountant_t* a = strata_accountant_create("anthropic", options, &err);
  CHECK(a != NULL && err == NULL);
  strata_session_t* s = strata_session_create(kSession, &err);
  if (a == NULL || s == NULL) return;
  size_t len = 0;
  char* one = strata_session_render(s, "anthropic", &len, NULL, &err);
  char* r1 = strata_accountant_account(a, one, len, "anthropic", 0, &err);
  CHECK(err == NULL && r1 != NULL);
  long input1 = Member(r1, "input_tokens");
  CHECK(input1 > 0);
  CHECK(Member(r1, "cache_read_tokens") == 0);
  CHECK(Member(r1, "cache_write_tokens") > 0);
  CHECK(Member(r1, "cache_read_tokens") + Member(r1, "cache_write_tokens") +
            Member(r1, "uncached_tokens") ==
        input1);
  CHECK(strstr(r1, "\"hit_ratio\":0.0") != NULL);
  CHECK(strstr(r1, "\"breakpoints\":[{\"block\":\"system[0]\"") != NULL);
  char tokenizer[256];
  snprintf(tokenizer, sizeof tokenizer, "\"tokenizer\":\"%s", tokenizer_name);
  CHECK(strstr(r1, tokenizer) != NULL);
  Reply(s, "It says hello.");
  CHECK(strata_session_begin_turn(s, "Thanks", &err) == 1);
  char* two = strata_session_render(s, "anthropic", &len, NULL, &err);
  char* r2 = strata_accountant_account(a, two, len, "anthropic", 60, &err);
  CHECK(err == NULL && r2 != NULL);
  long input2 = Member(r2, "input_tokens");
  long read2 = Member(r2, "cache_read_tokens");
  /* Turn 1 wrote its whole prompt up to its last breakpoint (the end of its input): turn 2
   * reads exactly that, which is turn 1's input less what follows the last breakpoint. */
  CHECK(read2 == Member(r1, "cache_write_tokens"));
  CHECK(input2 > input1 && read2 > 0 && read2 < input2);
  CHECK(Member(r2, "shared_tokens") >= read2);
  /* Six minutes later, past the 5 minute TTL, nothing is read. */
  Reply(s, "You are welcome.");
  CHECK(strata_session_begin_turn(s, "Bye", &err) == 1);
  char* three = strata_session_render(s, "anthropic", &len, NULL, &err);
  char* r3 = strata_accountant_account(a, three, len, "anthropic", 60 + 360, &err);
  CHECK(Member(r3, "cache_read_tokens") == 0);
  strata_free(r1);
  strata_free(r2);
  strata_free(r3);
  CHECK(strata_accountant_account(a, "{\"messages\": 3}", 15, "anthropic", 500, &err) == NULL);
  ExpectError(&err, "messages");
  CHECK(strata_accountant_account(a, one, strlen(one), "gemini", 500, &err) == NULL);
  ExpectError(&err, "gemini");
  CHECK(strata_accountant_account(NULL, one, strlen(one), "anthropic", 500, &err) == NULL);
  ExpectError(&err, "NULL");
  CHECK(strata_accountant_create("no-such-cache", options, &err) == NULL);
  ExpectError(&err, "no-such-cache");
  strata_free(one);
  strata_free(two);
  strata_free(three);
  strata_session_destroy(s);
  strata_accountant_destroy(a);
}

/* What a harness author meets without a vocabulary (strata.h, "Tokenizers"): the default
 * ("auto") and "estimate" always give an accountant that names its tokenizer; a vocabulary name
 * in a build without llama.cpp is an error that points to "estimate". */
static void TestAccountantTokenizers(const char* vocab_dir) {
  char* err = NULL;
  TestAccountant("{\"tokenizer\": \"estimate\", \"minimum_tokens\": 1}",
                 "estimate (4 bytes per token, no vocabulary)");
  strata_accountant_t* a = strata_accountant_create("openai", NULL, &err);
  CHECK(a != NULL && err == NULL);
  strata_accountant_destroy(a);
  char options[4096];
  snprintf(options, sizeof options,
           "{\"tokenizer\": \"gpt-2\", \"vocab_dir\": \"%s\", \"minimum_tokens\": 1}", vocab_dir);
  if (!strata_has_local()) {
    CHECK(strata_accountant_create("anthropic", options, &err) == NULL);
    ExpectError(&err, "\"estimate\"");
    return;
  }
  if (vocab_dir[0] == '\0') return;
  TestAccountant(options, "llama.cpp vocab gpt-2");
  snprintf(options, sizeof options, "{\"tokenizer\": \"no-such-vocab\", \"vocab_dir\": \"%s\"}",
           vocab_dir);
  CHECK(strata_accountant_create("anthropic", options, &err) == NULL);
  ExpectError(&err, "no-such-vocab");
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: strata_c_turns_test VOCAB_DIR\n");
    return 2;
  }
  TestUpdateTail();
  TestUpdateInstructionsAndTools();
  TestUpdateRefusals();
  TestEvents();
  TestAccountantTokenizers(argv[1]);
  if (failures == 0) printf("strata_c_turns_test: all checks passed\n");
  return failures == 0 ? 0 : 1;
}
