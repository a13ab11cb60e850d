/* c_consumer.c: discovers a directory's instruction files through the C ABI, then shows an error
 * arriving in errptr. */
#include <stdio.h>

#include "strata.h"

int main(int argc, char** argv) {
  char* err = NULL;
  char* found;
  if (argc < 2) return 2;
  printf("strata %s\n", strata_version());
  found = strata_discover(argv[1], "{\"project_root\": \"\"}", &err);
  if (err != NULL) {
    fprintf(stderr, "%s\n", err);
    strata_free(err);
    return 1;
  }
  printf("%s\n", found);
  strata_free(found);
  found = strata_compile(argv[1], "{\"verify\": 1}", &err);
  printf("%s\n", err != NULL ? err : "no error");
  strata_free(err);
  strata_free(found);
  return 0;
}
