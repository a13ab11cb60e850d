# The Python package (python/strata, ctypes over libstrata.so) with pytest, and its example
# harness (python/tests/test_strata.py runs it).
# Debian's python3 first (python3-pytest is installed for it), before any python3 on PATH.
find_program(STRATA_PYTHON3 NAMES python3 HINTS /usr/bin)
if(STRATA_PYTHON3)
  execute_process(COMMAND ${STRATA_PYTHON3} -c "import pytest" RESULT_VARIABLE _strata_no_pytest
                  OUTPUT_QUIET ERROR_QUIET)
endif()
if(NOT STRATA_PYTHON3 OR _strata_no_pytest)
  message(STATUS "strata: python3-pytest not found: the Python package test is left out "
                 "(scripts/setup.sh installs it)")
  return()
endif()
set(_strata_vocab_dir "")
if(STRATA_HAS_LOCAL)
  set(_strata_vocab_dir "${STRATA_LLAMA_VOCAB_DIR}")
endif()
add_test(NAME python.strata
  COMMAND ${STRATA_PYTHON3} -m pytest -q -p no:cacheprovider ${PROJECT_SOURCE_DIR}/python/tests)
set_tests_properties(python.strata PROPERTIES LABELS quick
  ENVIRONMENT "PYTHONPATH=${PROJECT_SOURCE_DIR}/python;STRATA_LIBRARY=$<TARGET_FILE:strata_shared>;STRATA_SOURCE_DIR=${PROJECT_SOURCE_DIR};STRATA_VOCAB_DIR=${_strata_vocab_dir};PYTHONDONTWRITEBYTECODE=1")
