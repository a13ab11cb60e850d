# Real-client tests (label realclient, and slow): the pinned Claude Code, Codex CLI and opencode of
# scripts/setup-clients.sh each complete a one-shot run against `strata serve` on the tiny
# generated model, twice across a server restart; the second run restores the shared prefix from
# the store (tests/serve/realclient/realclient.mjs). They skip (return code 77) without node, the
# client cache or the vocabulary. Serial: each starts a server and a harness.
foreach(harness claude codex opencode)
  add_test(NAME realclient.${harness}
    COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/realclient/run.sh ${harness} $<TARGET_FILE:strata_local_cli>
            $<TARGET_FILE:make_test_model> "${STRATA_LLAMA_VOCAB_DIR}")
  set_tests_properties(realclient.${harness} PROPERTIES LABELS "realclient;slow"
    SKIP_RETURN_CODE 77 TIMEOUT 900 RUN_SERIAL TRUE)
endforeach()

# Sessions as people run them (tests/serve/realclient/sessions.mjs): Claude Code 2.1.328 in an
# interactive tmux session (two turns with tool calls) and two one-shot runs, Claude Code 2.1.117
# (it sends a cch per request) one-shot, Codex CLI and opencode two one-shot runs each, against a
# scripted upstream behind `strata record`; the recorded requests replayed to strata serve in
# order, in order across a server restart after half of them (the same store), and two sessions
# at once (every request reuses >= 95% of what it shares with an earlier one; the second session
# restores its system and tools part).
foreach(harness claude claude-cch codex opencode)
  add_test(NAME realclient.sessions.${harness}
    COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/realclient/sessions.sh ${harness} $<TARGET_FILE:strata_cli>
            $<TARGET_FILE:strata_local_cli> $<TARGET_FILE:make_test_model> "${STRATA_LLAMA_VOCAB_DIR}")
  set_tests_properties(realclient.sessions.${harness} PROPERTIES LABELS "realclient;slow"
    SKIP_RETURN_CODE 77 TIMEOUT 900 RUN_SERIAL TRUE)
endforeach()
