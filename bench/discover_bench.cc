// discover_bench.cc: discovery over a generated monorepo (100,000 files, 1,000 instruction files,
// import chains 5 deep, a CLAUDE.md symlink), side by side with `find` over the same tree as the
// floor. Prints a table of medians, the ratio to find, peak memory (max RSS of each child
// process), and whether two runs of `strata discover --all --json` gave byte-identical output.
//
//   discover_bench [--strata PATH] [--runs N] [--keep]
//
// PATH defaults to ../tools/strata/strata beside this binary. The tree lives in a temporary
// directory, removed at the end unless --keep.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "strata/discover.h"

namespace fs = std::filesystem;

namespace {

constexpr int kPackages = 100;
constexpr int kModules = 10;  // per package: 1,000 module directories
constexpr int kTotalFiles = 100000;

void Write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

// Returns the number of regular files written (symlinks not counted) and of instruction files.
std::pair<int, int> Generate(const fs::path& root) {
  int files = 0, instructions = 0;
  fs::create_directories(root / ".git");
  Write(root / "AGENTS.md", "# Monorepo\n\nBuild with make. See @docs/style.md for style.\n");
  Write(root / "docs/style.md", "# Style\n\nFour spaces.\n");
  fs::create_symlink("AGENTS.md", root / "CLAUDE.md");
  files += 2;
  instructions += 1;
  std::vector<fs::path> modules;
  for (int p = 0; p < kPackages; ++p) {
    char pkg[32];
    std::snprintf(pkg, sizeof pkg, "packages/pkg%03d", p);
    for (int m = 0; m < kModules; ++m) {
      char mod[16];
      std::snprintf(mod, sizeof mod, "mod%02d", m);
      modules.push_back(root / pkg / mod);
    }
  }
  // 999 module AGENTS.md files (1,000 instruction files with the root's); the first module of each
  // package imports a chain of 5 notes files.
  for (size_t i = 0; i + 1 < modules.size(); ++i) {
    const fs::path& dir = modules[i];
    std::string text = "# " + dir.filename().string() + "\n\nRun the module's tests.\n";
    if (i % kModules == 0) {
      text += "\n@notes/n1.md\n";
      for (int d = 1; d <= 5; ++d) {
        Write(dir / "notes" / ("n" + std::to_string(d) + ".md"),
              "note " + std::to_string(d) +
                  (d < 5 ? "\n@n" + std::to_string(d + 1) + ".md\n" : "\n"));
        ++files;
      }
    }
    Write(dir / "AGENTS.md", text);
    ++files;
    ++instructions;
  }
  // Fill to kTotalFiles with source files spread over the modules.
  int per_module = (kTotalFiles - files) / static_cast<int>(modules.size());
  int extra = (kTotalFiles - files) % static_cast<int>(modules.size());
  for (size_t i = 0; i < modules.size(); ++i) {
    int count = per_module + (static_cast<int>(i) < extra ? 1 : 0);
    for (int f = 0; f < count; ++f) {
      const char* sub = f % 2 == 0 ? "src" : "tests";
      Write(modules[i] / sub / ("file" + std::to_string(f) + ".py"), "x = 1\n");
      ++files;
    }
  }
  return {files, instructions};
}

struct RunStats {
  double seconds = 0;
  long max_rss_kib = 0;
};

// Runs argv with stdout sent to `out_path` (or /dev/null) and returns wall time and max RSS.
RunStats Spawn(const std::vector<std::string>& args, const std::string& out_path = "/dev/null") {
  std::fflush(stdout);  // or the child's freopen would write our buffered lines again
  auto start = std::chrono::steady_clock::now();
  pid_t pid = ::fork();
  if (pid == 0) {
    if (!std::freopen(out_path.c_str(), "w", stdout)) _exit(127);
    if (!std::freopen("/dev/null", "w", stderr)) _exit(127);
    std::vector<char*> argv;
    std::vector<std::string> copy = args;
    for (auto& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execvp(argv[0], argv.data());
    _exit(127);
  }
  int status = 0;
  struct rusage usage {};
  ::wait4(pid, &status, 0, &usage);
  auto end = std::chrono::steady_clock::now();
  return {std::chrono::duration<double>(end - start).count(), usage.ru_maxrss};
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

struct Row {
  std::string name;
  double median_ms;
  long max_rss_kib;
  std::string found;
};

Row Measure(const std::string& name, const std::vector<std::string>& args, int runs,
            const std::string& found) {
  Spawn(args);  // warm the page cache
  std::vector<double> times;
  long rss = 0;
  for (int r = 0; r < runs; ++r) {
    RunStats s = Spawn(args);
    times.push_back(s.seconds * 1000);
    rss = std::max(rss, s.max_rss_kib);
  }
  return {name, Median(times), rss, found};
}

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

int main(int argc, char** argv) {
  fs::path strata = fs::read_symlink("/proc/self/exe").parent_path() / "../tools/strata/strata";
  int runs = 5;
  bool keep = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--strata" && i + 1 < argc)
      strata = argv[++i];
    else if (arg == "--runs" && i + 1 < argc)
      runs = std::max(1, std::atoi(argv[++i]));
    else if (arg == "--keep")
      keep = true;
  }
  strata = fs::weakly_canonical(strata);
  std::string tmpl = (fs::temp_directory_path() / "strata-discover-bench-XXXXXX").string();
  if (::mkdtemp(tmpl.data()) == nullptr) return 2;
  fs::path root = fs::path(tmpl) / "mono";
  auto gen_start = std::chrono::steady_clock::now();
  auto [files, instructions] = Generate(root);
  double gen_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - gen_start).count();
  std::printf(
      "tree: %d files, %d instruction files, 100 import chains 5 deep (generated in %.1f s)\n",
      files, instructions, gen_s);

  // In-process library call, for reference.
  strata::DiscoverOptions options;
  options.working_dir = root;
  options.budget.total_bytes = 0;
  size_t sources = 0;
  std::vector<double> lib_ms;
  for (int r = 0; r <= runs; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    auto d = strata::DiscoverAll(options);
    double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (r > 0) lib_ms.push_back(ms);
    sources = d ? d->sources.size() : 0;
  }

  std::vector<std::string> find_args = {
      "find",  root.string(),     "(",  "-name", "AGENTS.md",       "-o",
      "-name", "CLAUDE.md",       "-o", "-name", "GEMINI.md",       "-o",
      "-name", "AGENTS.local.md", "-o", "-name", "CLAUDE.local.md", ")"};
  fs::path find_out = fs::path(tmpl) / "find.txt";
  Spawn(find_args, find_out.string());
  std::string find_found = ReadFile(find_out);
  int find_lines = static_cast<int>(std::count(find_found.begin(), find_found.end(), '\n'));

  fs::path deep = root / "packages/pkg042/mod00";
  std::vector<std::string> all_args = {
      strata.string(), "discover",          "--no-global", "--all",
      "--json",        "--max-total-bytes", "0",           root.string()};
  std::vector<Row> rows;
  rows.push_back(Measure("find (floor)", find_args, runs, std::to_string(find_lines) + " paths"));
  rows.push_back(Measure("strata discover --all --json", all_args, runs,
                         std::to_string(sources) + " sources"));
  rows.push_back(Measure("strata discover (cascade, deep dir)",
                         {strata.string(), "discover", "--no-global", deep.string()}, runs, "-"));

  fs::path out1 = fs::path(tmpl) / "run1.json", out2 = fs::path(tmpl) / "run2.json";
  Spawn(all_args, out1.string());
  Spawn(all_args, out2.string());
  bool identical = ReadFile(out1) == ReadFile(out2) && !ReadFile(out1).empty();

  std::printf("\n%-38s %12s %10s %14s  %s\n", "command", "median ms", "vs find", "peak RSS KiB",
              "found");
  for (const Row& row : rows) {
    std::printf("%-38s %12.1f %9.2fx %14ld  %s\n", row.name.c_str(), row.median_ms,
                row.median_ms / rows[0].median_ms, row.max_rss_kib, row.found.c_str());
  }
  std::printf("%-38s %12.1f %10s %14s  %zu sources\n", "DiscoverAll() in process", Median(lib_ms),
              "", "", sources);
  std::printf("\nruns per row: %d (median); run-to-run output byte-identical: %s\n", runs,
              identical ? "yes" : "NO");
  if (!keep) {
    std::error_code ec;
    fs::remove_all(tmpl, ec);
  } else {
    std::printf("tree kept at %s\n", root.c_str());
  }
  return identical ? 0 : 1;
}
