// discover_consumer.cc: lists the instruction files of a directory through the C++ API.
#include <cstdio>

#include "strata/discover.h"

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  strata::DiscoverOptions options;
  options.working_dir = argv[1];
  options.project_root = argv[1];
  auto found = strata::Discover(options);
  if (!found) {
    std::fprintf(stderr, "%s\n", strata::FormatError(found.error()).c_str());
    return 1;
  }
  std::printf("sources: %zu", found->sources.size());
  for (const auto& source : found->sources) std::printf(" %s", source.display_path.c_str());
  std::printf("\n");
  return 0;
}
