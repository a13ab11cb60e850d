# Fleet tests of the shared checkpoint tier (label slow): separate `strata-local serve` processes,
# each with its own local store, share one redis-server started on loopback by the script
# (tests/serve/shared_tier_fleet.mjs: restore, one_prefill, faults). They skip (return code 77)
# without node, redis-server or the vocabulary.
foreach(scenario restore one_prefill faults)
  add_test(NAME serve.shared_tier_fleet.${scenario}
    COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/shared_tier_fleet.sh ${scenario}
            $<TARGET_FILE:strata_local_cli> $<TARGET_FILE:make_test_model>
            ${STRATA_LLAMA_VOCAB_DIR}/ggml-vocab-llama-spm.gguf)
  set_tests_properties(serve.shared_tier_fleet.${scenario} PROPERTIES LABELS slow
    SKIP_RETURN_CODE 77 TIMEOUT 600)
endforeach()
