# Links strata_local (and strata_serve) into the targets that other directories define (included from the root
# CMakeLists.txt after them, only when llama.cpp is built): the test binaries and bench/local_*
# benchmarks (the CLI: tools/strata/CMakeLists.txt).
if(TARGET strata_tests)
  target_link_libraries(strata_tests PRIVATE strata_serve strata_local strata_test_model)
  # STRATA_LLAMA_BACKENDS: tests/serve/serve_cli_test.cc expects the CPU-only warnings of -ngl when
  # llama.cpp was built with the CPU backend alone.
  target_compile_definitions(strata_tests PRIVATE
    STRATA_LLAMA_BACKENDS="${STRATA_LLAMA_BACKENDS}"
    STRATA_LLAMA_VOCAB_DIR="${STRATA_LLAMA_VOCAB_DIR}"
    STRATA_OPENAI_VOCAB_DIR="${STRATA_OPENAI_VOCAB_DIR}"
    STRATA_MAKE_TEST_MODEL="$<TARGET_FILE:make_test_model>")
  add_dependencies(strata_tests make_test_model)
  if(TARGET openai_vocab)
    add_dependencies(strata_tests openai_vocab)
  endif()
endif()
if(TARGET strata_slow_tests)
  # strata_llama_libs: tests/local/local_engine_test.cc drives the engine (src/local) directly.
  target_link_libraries(strata_slow_tests PRIVATE strata_serve strata_local strata_test_model
    strata_llama_libs)
  target_compile_definitions(strata_slow_tests PRIVATE
    STRATA_LLAMA_VOCAB_DIR="${STRATA_LLAMA_VOCAB_DIR}"
    STRATA_MAKE_TEST_MODEL="$<TARGET_FILE:make_test_model>")
endif()
if(TARGET strata_gpu_tests)
  target_link_libraries(strata_gpu_tests PRIVATE strata_serve strata_local strata_test_model
    strata_llama_libs)
  target_compile_definitions(strata_gpu_tests PRIVATE
    STRATA_LLAMA_VOCAB_DIR="${STRATA_LLAMA_VOCAB_DIR}")
endif()
file(GLOB _strata_local_benches CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/bench/local_*_bench.cc
  ${PROJECT_SOURCE_DIR}/bench/replay*_bench.cc)
foreach(src ${_strata_local_benches})
  get_filename_component(name ${src} NAME_WE)
  if(TARGET ${name})
    target_link_libraries(${name} PRIVATE strata_local)
    if(name STREQUAL "local_checkpoint_bench")
      target_link_libraries(${name} PRIVATE strata_test_model)
    endif()
    if(name MATCHES "^local_")  # they reach the model through local/local_model.h (llama.h)
      target_link_libraries(${name} PRIVATE strata_llama_libs)
    endif()
    target_compile_definitions(${name} PRIVATE
      STRATA_LLAMA_VOCAB_DIR="${STRATA_LLAMA_VOCAB_DIR}"
      STRATA_LLAMA_SOURCE_DIR="${STRATA_LLAMA_SOURCE_DIR}"
      STRATA_SOURCE_DIR_FOR_BENCH="${PROJECT_SOURCE_DIR}")
  endif()
endforeach()
# The shared tier benchmark (bench/shared_store_bench.sh runs it against a local redis-server).
if(TARGET shared_store_bench)
  target_link_libraries(shared_store_bench PRIVATE strata_shared_store strata_local strata_test_model
    strata_llama_libs)
  target_compile_definitions(shared_store_bench PRIVATE
    STRATA_LLAMA_VOCAB_DIR="${STRATA_LLAMA_VOCAB_DIR}"
    STRATA_LLAMA_SOURCE_DIR="${STRATA_LLAMA_SOURCE_DIR}")
endif()
