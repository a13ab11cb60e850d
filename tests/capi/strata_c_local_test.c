/* strata_c_local_test.c: a local session through the C ABI (include/strata.h), on a model the
 * test generates: the first session prefills and stores the prefix checkpoint, the second one
 * (another session object, the same store) restores it, and another AGENTS.md misses. The rules
 * are docs/chat.md's: the checkpoint key covers the deterministic prefix (system context with the
 * project's AGENTS.md, template, model), later turns have no checkpoint of their own.
 * argv[1]: a GGUF model, argv[2]: an empty scratch directory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c_check.h"
#include "strata.h"

/* The turn report's members this test reads. */
typedef struct {
  char checkpoint[16];
  char key[64];
  long turn, prefix_tokens, suffix_tokens, generated_tokens;
  int stored;
} Report;

/* The text of string member `name` of the flat report `json` into `out` (empty when absent). */
static void StringMember(const char* json, const char* name, char* out, size_t size) {
  char pattern[64];
  snprintf(pattern, sizeof pattern, "\"%s\":\"", name);
  out[0] = '\0';
  const char* at = strstr(json, pattern);
  if (at == NULL) return;
  at += strlen(pattern);
  const char* end = strchr(at, '"');
  if (end == NULL || (size_t)(end - at) >= size) return;
  memcpy(out, at, (size_t)(end - at));
  out[end - at] = '\0';
}

/* The value of number member `name`, or -1 when absent. */
static long NumberMember(const char* json, const char* name) {
  char pattern[64];
  snprintf(pattern, sizeof pattern, "\"%s\":", name);
  const char* at = strstr(json, pattern);
  return at != NULL ? strtol(at + strlen(pattern), NULL, 10) : -1;
}

static Report Submit(strata_local_session_t* s, const char* message) {
  Report r;
  memset(&r, 0, sizeof r);
  char* err = NULL;
  char* json = strata_local_session_submit(s, message, &err);
  CHECK(err == NULL && json != NULL);
  if (err != NULL) fprintf(stderr, "submit: %s\n", err);
  strata_free(err);
  if (json == NULL) return r;
  StringMember(json, "checkpoint", r.checkpoint, sizeof r.checkpoint);
  StringMember(json, "key", r.key, sizeof r.key);
  r.turn = NumberMember(json, "turn");
  r.prefix_tokens = NumberMember(json, "prefix_tokens");
  r.suffix_tokens = NumberMember(json, "suffix_tokens");
  r.generated_tokens = NumberMember(json, "generated_tokens");
  r.stored = strstr(json, "\"stored\":true") != NULL;
  strata_free(json);
  return r;
}

static strata_local_session_t* Create(const char* model, const char* options) {
  char* err = NULL;
  strata_local_session_t* s = strata_local_session_create(model, options, &err);
  CHECK(s != NULL && err == NULL);
  if (err != NULL) fprintf(stderr, "create: %s\n", err);
  strata_free(err);
  return s;
}

static void WriteFile(const char* path, const char* text) {
  FILE* f = fopen(path, "w");
  CHECK(f != NULL);
  if (f == NULL) return;
  fputs(text, f);
  fclose(f);
}

int main(int argc, char** argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: strata_c_local_test MODEL.gguf SCRATCH_DIR\n");
    return 2;
  }
  if (!strata_has_local()) {
    printf("skip: this libstrata has no llama.cpp\n");
    return 77;
  }
  const char* model = argv[1];
  char agents[1024], options[2048];
  snprintf(agents, sizeof agents, "%s/AGENTS.md", argv[2]);
  snprintf(options, sizeof options,
           "{\"project\": \"%s\", \"checkpoint_dir\": \"%s/kv\", \"ctx\": 512, \"max_tokens\": 4}",
           argv[2], argv[2]);
  WriteFile(agents, "# Kiln\n\nRun `make check` before every commit.\n");

  /* First session: nothing stored yet. */
  strata_local_session_t* first = Create(model, options);
  if (first == NULL) return 1;
  Report a1 = Submit(first, "List the build targets.");
  CHECK(a1.turn == 1);
  CHECK(strcmp(a1.checkpoint, "miss") == 0);
  CHECK(a1.stored);
  CHECK(strlen(a1.key) == 32);
  CHECK(a1.prefix_tokens > 0 && a1.suffix_tokens > 0);
  CHECK(a1.generated_tokens >= 1 && a1.generated_tokens <= 4);
  Report a2 = Submit(first, "And the test targets?");
  CHECK(a2.turn == 2);
  CHECK(strcmp(a2.checkpoint, "none") == 0);
  CHECK(!a2.stored);
  strata_local_session_destroy(first);

  /* Second session, another first message: the stored prefix is restored, nothing is written. */
  strata_local_session_t* second = Create(model, options);
  if (second == NULL) return 1;
  Report b1 = Submit(second, "Where is the changelog?");
  CHECK(b1.turn == 1);
  CHECK(strcmp(b1.checkpoint, "hit") == 0);
  CHECK(strcmp(b1.key, a1.key) == 0);
  CHECK(b1.prefix_tokens == a1.prefix_tokens);
  CHECK(!b1.stored);
  strata_local_session_destroy(second);

  /* Another AGENTS.md is another prefix: a miss under another key, stored because the new part
   * is longer than the engine's smallest stored cut (64 tokens past what was restored). */
  WriteFile(agents,
            "# Kiln\n\nRun `make lint` before every commit. Kiln bakes static sites from "
            "Markdown pages and Jinja templates; every page lives under content/, every template "
            "under templates/, and the build writes public/. Never edit public/ by hand: the next "
            "build replaces it. Tests live in tests/ and run with `make check`, which also lints "
            "the templates and checks every internal link of the built site.\n");
  strata_local_session_t* third = Create(model, options);
  if (third == NULL) return 1;
  Report c1 = Submit(third, "List the build targets.");
  CHECK(strcmp(c1.checkpoint, "miss") == 0);
  CHECK(strlen(c1.key) == 32 && strcmp(c1.key, a1.key) != 0);
  CHECK(c1.stored);
  strata_local_session_destroy(third);

  if (failures == 0) printf("all checks passed\n");
  return failures == 0 ? 0 : 1;
}
