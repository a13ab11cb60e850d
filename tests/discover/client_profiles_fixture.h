// client_profiles_fixture.h: what the client-profile tests share: a client's discovery run in a
// directory, as the list of loaded display paths, their texts, or what touching a path delivers.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "strata/discover.h"
#include "support/test_support.h"

namespace strata::testing_profiles {

namespace fs = std::filesystem;

inline std::vector<std::string> Loaded(Client client, const fs::path& cwd,
                                       const fs::path& home = {},
                                       const ClientSettings& settings = {}) {
  Result<Discovery> d = Discover(ClientOptions(client, cwd, home, settings));
  EXPECT_TRUE(d.has_value()) << (d ? "" : FormatError(d.error()));
  std::vector<std::string> out;
  if (d) {
    for (const auto& s : d->sources) out.push_back(s.display_path);
  }
  return out;
}

using Paths = std::vector<std::string>;

// The loaded texts, in order.
inline std::vector<std::string> Texts(const DiscoverOptions& options) {
  Result<Discovery> d = Discover(options);
  EXPECT_TRUE(d.has_value()) << (d ? "" : FormatError(d.error()));
  std::vector<std::string> out;
  if (d) {
    for (const auto& s : d->sources) out.push_back(s.content);
  }
  return out;
}

// What a SubdirectoryTracker started on the client's discovery delivers for `path`.
inline std::vector<std::string> Touched(const DiscoverOptions& options, const fs::path& path) {
  Result<Discovery> d = Discover(options);
  EXPECT_TRUE(d.has_value());
  if (!d) return {};
  SubdirectoryTracker tracker(options, *d);
  std::vector<std::string> out;
  for (const auto& s : tracker.Touch(path).sources) out.push_back(s.path.filename().string());
  return out;
}

}  // namespace strata::testing_profiles
