# realclient.usage.opencode (labels realclient and slow): `strata usage` on the SQLite store a real
# opencode session wrote (tests/usage/opencode_realclient.sh). It needs `strata record` (the
# capture goes through it) but no llama.cpp. Skips (77) without node, tmux or the pinned clients.
if(TARGET strata_record_cli)
  add_test(NAME realclient.usage.opencode
    COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/opencode_realclient.sh $<TARGET_FILE:strata_cli>)
  set_tests_properties(realclient.usage.opencode PROPERTIES LABELS "realclient;slow"
    SKIP_RETURN_CODE 77 TIMEOUT 900 RUN_SERIAL TRUE)
endif()
