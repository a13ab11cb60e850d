# Real-client tests (label realclient, and slow): the pinned Claude Code, Codex CLI and opencode of
# scripts/setup-clients.sh, Claude Code 2.1.117 (claude-cch, which sends a cch per request) and Pi
# each complete a one-shot run against `strata serve` on the tiny generated model, twice across a
# server restart; the second run restores the shared prefix from the store
# (tests/serve/realclient/realclient.mjs). Each keeps its own output budget and the server's -n
# ends its answers. They skip (return code 77) without node, the client cache or the
# vocabulary. Serial: each starts a server and a harness.
foreach(harness claude claude-cch codex opencode pi)
  add_test(NAME realclient.${harness}
    COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/realclient/run.sh ${harness} $<TARGET_FILE:strata_local_cli>
            $<TARGET_FILE:make_test_model> "${STRATA_LLAMA_VOCAB_DIR}")
  set_tests_properties(realclient.${harness} PROPERTIES LABELS "realclient;slow"
    SKIP_RETURN_CODE 77 TIMEOUT 900 RUN_SERIAL TRUE)
endforeach()

# Sessions as people run them (tests/serve/realclient/sessions.mjs): Claude Code 2.1.328, Claude
# Code 2.1.117 (it sends a cch per request; `strata explain` on each two consecutive requests loses
# nothing), Codex CLI, opencode and Pi (an OpenAI-compatible provider) each in an interactive tmux
# session (two turns with tool calls) and two one-shot runs with different prompts, against a
# scripted upstream
# behind `strata record`; the recorded requests replayed to strata serve in order (a title request
# at once with the request it accompanied), in order across a server restart after half of them
# (the same store), and two sessions at once (every request reuses >= 95% of what it shares with
# an earlier one; the second session restores its system and tools part). The Claude Code and
# Codex tests keep their recorded sessions (fixtures) for realclient.sessions.mixed: both
# harnesses' sessions sent to one server at once, neither evicting the other's prefix.
set(STRATA_REALCLIENT_SAVED ${CMAKE_BINARY_DIR}/realclient-sessions)
foreach(harness claude claude-cch codex opencode pi)
  set(save_args)
  if(harness STREQUAL "claude" OR harness STREQUAL "codex")
    set(save_args --save ${STRATA_REALCLIENT_SAVED}/${harness}.json)
  endif()
  add_test(NAME realclient.sessions.${harness}
    COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/realclient/sessions.sh ${harness} $<TARGET_FILE:strata_cli>
            $<TARGET_FILE:strata_local_cli> $<TARGET_FILE:make_test_model> "${STRATA_LLAMA_VOCAB_DIR}"
            ${save_args})
  set_tests_properties(realclient.sessions.${harness} PROPERTIES LABELS "realclient;slow"
    SKIP_RETURN_CODE 77 TIMEOUT 900 RUN_SERIAL TRUE)
endforeach()
set_tests_properties(realclient.sessions.claude PROPERTIES FIXTURES_SETUP realclient_sessions_claude)
set_tests_properties(realclient.sessions.codex PROPERTIES FIXTURES_SETUP realclient_sessions_codex)
add_test(NAME realclient.sessions.mixed
  COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/realclient/sessions.sh mixed $<TARGET_FILE:strata_cli>
          $<TARGET_FILE:strata_local_cli> $<TARGET_FILE:make_test_model> "${STRATA_LLAMA_VOCAB_DIR}"
          --from ${STRATA_REALCLIENT_SAVED}/claude.json,${STRATA_REALCLIENT_SAVED}/codex.json)
set_tests_properties(realclient.sessions.mixed PROPERTIES LABELS "realclient;slow"
  SKIP_RETURN_CODE 77 TIMEOUT 900 RUN_SERIAL TRUE
  FIXTURES_REQUIRED "realclient_sessions_claude;realclient_sessions_codex")
