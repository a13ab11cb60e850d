/* strata_c_test.c: the C ABI (include/strata.h) from C: every function once on good input and on
 * an input it must refuse, checking the JSON it hands back and that errors arrive in *errptr.
 * argv[1]: the strata source tree (its AGENTS.md is compiled in verify mode and discovered);
 * argv[2]: llama.cpp's vocabulary directory, or "" (replay and explain are then skipped). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c_check.h"
#include "strata.h"

/* Checks that `result` is NULL and an error message arrived; frees it. */
static void ExpectError(char* result, char** err, const char* needle) {
  CHECK(result == NULL);
  CHECK(*err != NULL);
  if (*err != NULL && needle != NULL && strstr(*err, needle) == NULL) {
    fprintf(stderr, "error '%s' lacks '%s'\n", *err, needle);
    failures++;
  }
  strata_free(*err);
  *err = NULL;
  strata_free(result);
}

static void TestVersion(void) {
  CHECK(strcmp(strata_version(), STRATA_VERSION) == 0);
  CHECK(strata_has_local() == STRATA_HAS_LOCAL);
}

static void TestCompile(const char* source_dir) {
  char* err = NULL;
  char* report = strata_compile(source_dir, "{\"verify\": true}", &err);
  CHECK(err == NULL);
  CHECK(report != NULL && strstr(report, "\"id\":\"claude-code\"") != NULL);
  CHECK(report != NULL && strstr(report, "\"source\":\"AGENTS.md\"") != NULL);
  strata_free(report);
  ExpectError(strata_compile(source_dir, "{\"verify\": tru", &err), &err, "not valid JSON");
  ExpectError(strata_compile(source_dir, "{\"targets\": [\"no-such-client\"]}", &err), &err,
              "no-such-client");
}

static void TestDiscover(const char* source_dir) {
  char* err = NULL;
  char* found = strata_discover(source_dir, "{\"content\": true}", &err);
  CHECK(err == NULL);
  CHECK(found != NULL && strstr(found, "\"path\":\"AGENTS.md\"") != NULL);
  CHECK(found != NULL && strstr(found, "\"content\":") != NULL);
  strata_free(found);
  ExpectError(strata_discover("/nonexistent/strata-c-test", NULL, &err), &err, "nonexistent");
}

static const char kSession[] =
    "{\"model\": \"claude-sonnet-4-5\", \"persona\": \"You are a careful coding agent.\","
    " \"tools\": [{\"name\": \"read\", \"description\": \"Reads a file.\","
    "  \"input_schema\": {\"type\": \"object\", \"properties\": {\"path\": {\"type\": "
    "\"string\"}}}}],"
    " \"instructions\": [{\"key\": \"AGENTS.md\", \"text\": \"# Project\\n\\nRun make test.\\n\"}],"
    " \"user\": \"Read README.md\"}";

/* Renders turn 1, appends a tool call and its result, renders again: turn 1's bytes up to its
 * last breakpoint are a prefix of turn 2's. Returns the two renders through a and b. */
static void TestSession(char** a, size_t* a_len, char** b, size_t* b_len) {
  char* err = NULL;
  char* layers = NULL;
  strata_session_t* s = strata_session_create(kSession, &err);
  CHECK(err == NULL && s != NULL);
  if (s == NULL) return;
  *a = strata_session_render(s, "anthropic", a_len, &layers, &err);
  CHECK(err == NULL && *a != NULL && *a_len == strlen(*a));
  CHECK(*a != NULL && strstr(*a, "cache_control") != NULL);
  CHECK(layers != NULL && strstr(layers, "\"breakpoints\":") != NULL);
  CHECK(layers != NULL && strstr(layers, "\"layers\":") != NULL);
  strata_free(layers);
  CHECK(strata_session_append(s,
                              "{\"role\": \"assistant\", \"content\": \"\", \"tool_calls\":"
                              " [{\"id\": \"t1\", \"name\": \"read\", \"arguments\": {\"path\":"
                              " \"README.md\"}}]}",
                              &err) == 1);
  CHECK(err == NULL);
  /* A user turn while a tool call waits for its result is refused. */
  CHECK(strata_session_begin_turn(s, "next", &err) == 0);
  ExpectError(NULL, &err, NULL);
  CHECK(strata_session_append(
            s, "{\"role\": \"tool\", \"tool_call_id\": \"t1\", \"content\": \"# strata\"}", &err) ==
        1);
  CHECK(err == NULL);
  CHECK(strata_session_append(s, "{\"role\": \"tool\", \"tool_call_id\": 7}", &err) == 0);
  ExpectError(NULL, &err, NULL);
  CHECK(strata_session_append(s, "not json", &err) == 0);
  ExpectError(NULL, &err, "not a JSON object");
  *b = strata_session_render(s, "anthropic", b_len, NULL, &err);
  CHECK(err == NULL && *b != NULL);
  CHECK(*b != NULL && strstr(*b, "README.md") != NULL);
  ExpectError(strata_session_render(s, "no-such-provider", NULL, NULL, &err), &err,
              "no-such-provider");
  strata_session_destroy(s);
  CHECK(strata_session_begin_turn(NULL, "hi", &err) == 0);
  ExpectError(NULL, &err, "NULL");
  ExpectError((char*)strata_session_create("{\"history\": [{\"role\": \"robot\"}]}", &err), &err,
              "robot");
}

/* Explain and replay count with the tokenizer `options` name ("tokenizer" in the result). */
static void ExplainAndReplayWith(const char* options, const char* tokenizer, const char* a,
                                 size_t a_len, const char* b, size_t b_len) {
  char* err = NULL;
  char named[256];
  snprintf(named, sizeof named, "\"tokenizer\": \"%s", tokenizer); /* reports are indented */
  char* e = strata_explain(a, a_len, b, b_len, options, &err);
  CHECK(err == NULL && e != NULL);
  CHECK(e != NULL && strstr(e, "\"first_byte\"") != NULL);
  CHECK(e != NULL && strstr(e, named) != NULL);
  strata_free(e);
  ExpectError(strata_explain("", 0, b, b_len, options, &err), &err, "empty");

  static const char kTranscript[] =
      "{\"type\":\"context\",\"model\":\"claude-sonnet-4-5\",\"persona\":\"You are terse.\"}\n"
      "{\"type\":\"user\",\"text\":\"hello\"}\n"
      "{\"type\":\"assistant\",\"text\":\"hi\"}\n"
      "{\"type\":\"user\",\"text\":\"again\"}\n"
      "{\"type\":\"assistant\",\"text\":\"ok\"}\n";
  char* r = strata_replay(kTranscript, strlen(kTranscript), "strata", "anthropic", options, &err);
  if (err != NULL) fprintf(stderr, "replay: %s\n", err);
  CHECK(err == NULL && r != NULL);
  CHECK(r != NULL && strstr(r, "\"turns\"") != NULL);
  CHECK(r != NULL && strstr(r, named) != NULL);
  strata_free(r);
  strata_free(err);
  err = NULL;
  ExpectError(strata_replay(kTranscript, strlen(kTranscript), "yaml", "anthropic", options, &err),
              &err, "yaml");
}

/* Every build explains and replays with the "estimate" tokenizer; a llama.cpp vocabulary needs
 * the llama.cpp parts (without them naming one is an error that points to "estimate"). */
static void TestExplainAndReplay(const char* vocab_dir, const char* a, size_t a_len, const char* b,
                                 size_t b_len) {
  char* err = NULL;
  ExplainAndReplayWith("{\"tokenizer\": \"estimate\"}", "estimate (4 bytes per token", a, a_len, b,
                       b_len);
  char options[4096];
  snprintf(options, sizeof options, "{\"tokenizer\": \"gpt-2\", \"vocab_dir\": \"%s\"}", vocab_dir);
  if (!strata_has_local()) {
    ExpectError(strata_explain(a, a_len, b, b_len, options, &err), &err, "\"estimate\"");
    return;
  }
  if (vocab_dir[0] != '\0')
    ExplainAndReplayWith(options, "llama.cpp vocab gpt-2", a, a_len, b, b_len);
}

static void TestLocal(void) {
  char* err = NULL;
  strata_local_session_t* s =
      strata_local_session_create("/nonexistent/model.gguf", "{\"ctx\": 256}", &err);
  CHECK(s == NULL);
  ExpectError(NULL, &err, strata_has_local() ? "model.gguf" : "not available");
  ExpectError(strata_local_session_submit(NULL, "hi", &err), &err,
              strata_has_local() ? "NULL" : "not available");
  strata_local_session_destroy(NULL); /* a no-op, as free(NULL) */
}

int main(int argc, char** argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: strata_c_test SOURCE_DIR VOCAB_DIR\n");
    return 2;
  }
  char* a = NULL;
  char* b = NULL;
  size_t a_len = 0, b_len = 0;
  TestVersion();
  TestCompile(argv[1]);
  TestDiscover(argv[1]);
  TestSession(&a, &a_len, &b, &b_len);
  if (a != NULL && b != NULL) TestExplainAndReplay(argv[2], a, a_len, b, b_len);
  strata_free(a);
  strata_free(b);
  TestLocal();
  if (failures == 0) printf("strata_c_test: all checks passed\n");
  return failures == 0 ? 0 : 1;
}
