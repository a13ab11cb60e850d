// name_patterns.cc: expanding `dir/*.md` and `dir/**/*.md` names against one directory.
#include "discover/name_patterns.h"

#include <fnmatch.h>

#include <algorithm>

namespace strata::discover {

namespace fs = std::filesystem;

namespace {

void Collect(const fs::path& base, const fs::path& sub, const std::string& glob, bool recursive,
             std::vector<std::string>* out) {
  std::error_code ec;
  for (fs::directory_iterator it(base / sub, fs::directory_options::skip_permission_denied, ec),
       end;
       !ec && it != end; it.increment(ec)) {
    std::error_code entry_ec;
    std::string name = it->path().filename().string();
    if (it->is_directory(entry_ec) && !it->is_symlink(entry_ec)) {
      if (recursive) Collect(base, sub / name, glob, true, out);
      continue;
    }
    if (::fnmatch(glob.c_str(), name.c_str(), FNM_PERIOD) == 0) {
      out->push_back((sub / name).lexically_normal().generic_string());
    }
  }
}

}  // namespace

bool IsNamePattern(const std::string& name) {
  size_t slash = name.rfind('/');
  std::string_view last = std::string_view(name).substr(slash == std::string::npos ? 0 : slash + 1);
  return last.find_first_of("*?") != std::string_view::npos;
}

std::vector<std::string> ExpandNamePatterns(const fs::path& dir,
                                            const std::vector<std::string>& names) {
  std::vector<std::string> out;
  for (const std::string& name : names) {
    if (!IsNamePattern(name)) {
      out.push_back(name);
      continue;
    }
    size_t slash = name.rfind('/');
    std::string prefix = slash == std::string::npos ? "" : name.substr(0, slash);
    std::string glob = slash == std::string::npos ? name : name.substr(slash + 1);
    bool recursive = prefix == "**" || prefix.ends_with("/**");
    if (recursive) prefix.resize(prefix.size() >= 3 ? prefix.size() - 3 : 0);
    if (!prefix.empty() && prefix.back() == '/') prefix.pop_back();
    std::vector<std::string> matches;
    Collect(dir, prefix.empty() ? fs::path(".") : fs::path(prefix), glob, recursive, &matches);
    std::sort(matches.begin(), matches.end());
    out.insert(out.end(), matches.begin(), matches.end());
  }
  return out;
}

}  // namespace strata::discover
