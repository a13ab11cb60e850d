# realclient.usage.<harness> (labels realclient and slow): `strata usage` on the logs a real
# harness session wrote: Claude Code's session files, Codex's rollouts, opencode's SQLite store
# (tests/usage/realclient_usage.sh). They need `strata record` (the capture goes through it) but no
# llama.cpp. Each skips (77) without node, tmux or the pinned clients.
if(TARGET strata_record_cli)
  # claude-cch: Claude Code 2.1.117, a second version of the same client.
  foreach(harness claude claude-cch codex opencode)
    add_test(NAME realclient.usage.${harness}
      COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/realclient_usage.sh ${harness} $<TARGET_FILE:strata_cli>)
    set_tests_properties(realclient.usage.${harness} PROPERTIES LABELS "realclient;slow"
      SKIP_RETURN_CODE 77 TIMEOUT 900 RUN_SERIAL TRUE)
  endforeach()
endif()
