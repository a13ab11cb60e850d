/* harness.c: a short agent loop on strata's C ABI (include/strata.h). Each turn sets the clock
 * (the volatile tail), begins with a user message, renders the request for Anthropic and accounts
 * it under Anthropic's cache model (strata_accountant_*: strata's own accounting, in tokens), then
 * appends a scripted tool call, its result and a reply. Before turn 3 the instructions change:
 * strata announces the diff in a context-update message and the cached prefix still serves.
 * The prefix here is a few hundred tokens, below Anthropic's 1024-token minimum for Sonnet, so
 * the accountant is given minimum_tokens 1 (a real harness keeps the documented minimum).
 *
 * Build: cc -std=c11 harness.c $(pkg-config --cflags --libs strata) -Wl,-rpath,$(pkg-config
 *        --variable=libdir strata)
 * Run:   ./harness [VOCAB_DIR]  (llama.cpp's vocabularies: counts with qwen2's; without it, or in a
 *        build without llama.cpp, with the "estimate" tokenizer, 4 bytes per token) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strata.h"

static const char kSession[] =
    "{\"model\": \"claude-sonnet-4-5\","
    " \"persona\": \"You are a careful coding agent.\","
    " \"tools\": [{\"name\": \"read\", \"description\": \"Reads a file.\","
    "   \"input_schema\": {\"type\": \"object\", \"properties\": {\"path\": {\"type\": "
    "\"string\"}}}}],"
    " \"instructions\": [{\"key\": \"AGENTS.md\", \"text\": \"# Project\\n\\nRun make "
    "test.\\n\"}]}";

/* Prints the error, frees it and returns 1; returns 0 when there is none. */
static int Failed(char* err) {
  if (err == NULL) return 0;
  fprintf(stderr, "harness: %s\n", err);
  strata_free(err);
  return 1;
}

int main(int argc, char** argv) {
  char* err = NULL;
  char options[4096];
  if (argc > 1 && argv[1][0] != '\0') {
    snprintf(options, sizeof options,
             "{\"tokenizer\": \"qwen2\", \"vocab_dir\": \"%s\", \"minimum_tokens\": 1}", argv[1]);
  } else {
    snprintf(options, sizeof options, "{\"tokenizer\": \"estimate\", \"minimum_tokens\": 1}");
  }
  strata_session_t* session = strata_session_create(kSession, &err);
  if (Failed(err)) return 1;
  strata_accountant_t* accountant = strata_accountant_create("anthropic", options, &err);
  if (Failed(err)) return 1;

  for (int turn = 1; turn <= 3; turn++) {
    char update[128], user[64], call[256], result[128];
    snprintf(update, sizeof update, "{\"now\": \"2026-11-29T10:0%d:00Z\"}", turn);
    strata_session_update(session, update, &err);
    if (turn == 3) {
      strata_session_update(session,
                            "{\"instructions\": [{\"key\": \"AGENTS.md\", \"text\":"
                            " \"# Project\\n\\nRun make test.\\nUse tabs.\\n\"}]}",
                            &err);
    }
    snprintf(user, sizeof user, "Step %d: what next?", turn);
    if (err == NULL) strata_session_begin_turn(session, user, &err);
    if (Failed(err)) return 1;

    size_t length = 0;
    char* request = strata_session_render(session, "anthropic", &length, NULL, &err);
    if (Failed(err)) return 1;
    char* usage =
        strata_accountant_account(accountant, request, length, "anthropic", 60.0 * turn, &err);
    if (Failed(err)) return 1;
    printf("turn %d: %zu bytes, accounting %s\n", turn, length, usage);
    strata_free(usage);
    strata_free(request);

    snprintf(call, sizeof call,
             "{\"role\": \"assistant\", \"content\": \"\", \"tool_calls\": [{\"id\": \"c%d\","
             " \"name\": \"read\", \"arguments\": {\"path\": \"README.md\"}}]}",
             turn);
    snprintf(result, sizeof result,
             "{\"role\": \"tool\", \"tool_call_id\": \"c%d\", \"content\": \"# README\"}", turn);
    strata_session_append(session, call, &err);
    if (err == NULL) strata_session_append(session, result, &err);
    if (err == NULL) {
      strata_session_append(session, "{\"role\": \"assistant\", \"content\": \"Done.\"}", &err);
    }
    if (Failed(err)) return 1;
  }
  strata_accountant_destroy(accountant);
  strata_session_destroy(session);
  return 0;
}
