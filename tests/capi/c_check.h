/* c_check.h: the C tests' check macro. A failed check prints its file, line and condition and
 * counts in `failures`; each test's main prints "all checks passed" when none failed. */
#ifndef STRATA_TESTS_CAPI_C_CHECK_H_
#define STRATA_TESTS_CAPI_C_CHECK_H_

#include <stdio.h>

static int failures = 0;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      failures++;                                                              \
    }                                                                          \
  } while (0)

#endif /* STRATA_TESTS_CAPI_C_CHECK_H_ */
