// discover.h: finds and loads every instruction file an agent working in a directory should see,
// in precedence order, each exactly once (docs/discover.md has the rules with examples), and the
// client registry those rules are kept by (first, below).
//
// The cascade, most general first so the most specific text lands last:
//   1. global files (the user config dir; the caller passes them, nothing is read from $HOME here),
//   2. the project root, then each directory below it down to the working directory; in each
//      directory every name of `file_names` that exists, in list order (rule below),
//   3. personal local files (`local_file_names`), for each directory from the root down.
// Each loaded file is followed by the files it imports, depth first, in the order the imports
// appear. An import is `@path` at the start of a line or after whitespace, outside code spans, code
// blocks and HTML comments (found with cmark-gfm); `./x`, `../x`, `~/x` and `/x` are always paths,
// other tokens only when they look like a file (`@notes/x.md`, `@AGENTS.md`), so `@scope/pkg`,
// e-mail addresses, `@pytest.fixture` and `@claude` are refused with a note saying why. Imports
// resolve relative to the importing file, at most ImportOptions::max_depth deep; a cycle, a
// missing target or a target outside the project root (after following symlinks) is a diagnostic. A
// file is identified by device and inode after following symlinks (canonical path when the
// filesystem reports inode 0), so `CLAUDE.md -> AGENTS.md` loads once and a file already loaded is
// never loaded again, as a cascade file or as an import.
//
// Several names present in one directory: with SameDirectoryRule::kLoadAll (the default) every
// distinct file loads, in `file_names` order (AGENTS.md before CLAUDE.md before GEMINI.md), and a
// note says so; with kFirstOnly only the first existing one loads and the others get a note.
// A file carrying strata's generated header (`strata compile` wrote it from a source such as
// AGENTS.md; compile.h) is skipped with a `generated-copy` note when the source it
// names, resolved in the same directory, has already been loaded; otherwise it loads as usual.
// A name that is a directory or a device/FIFO/socket gets a `not-a-file` warning, a dangling
// symlink `dangling-symlink`, a symlink loop `symlink-loop`.
//
// Project root: the nearest ancestor of the working directory (itself included) holding any of
// `root_markers` as a directory or a file (so a `.git` file of a submodule or worktree counts). No
// marker anywhere: the working directory alone, or every ancestor up to `/` when
// `walk_to_filesystem_root` is set.
//
// Files below the working directory are not part of the cascade: SubdirectoryTracker delivers them
// when the agent touches a path in their subtree, for the message tail or a tool result.
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "strata/status.h"

// The client registry: which agent harness is which (the names discover's client
// profiles and `--client` use), and, per harness and version range, what it sends that is not
// prompt text and varies per session or per request, with the rule strata applies to it.
//
// Why: a prefix cache (strata serve's KV checkpoints, a provider's prompt cache) reuses a prompt
// only up to its first differing token. A value that changes per session or per request placed
// before the conversation costs every following token. Anthropic's own API does not count
// Claude Code's billing block as prompt text (its recorded cache reads stay high across requests
// whose blocks differ); a local server that renders it prefills the whole prompt again.
//
// The rules (docs/serve-clients.md has the captures behind them):
//   claude-code  billing-header      system[0] text `x-anthropic-billing-header: cc_version=
//                                    <x.y.z>.<3 hex>; cc_entrypoint=<cli|sdk-cli|...>;`, the 3 hex
//                                    digits derived from the session's first prompt: varies per
//                                    session. All 2.1.x versions seen (2.1.36 .. 2.1.328).
//                                    Rule: left out of the local prompt and of the Anthropic
//                                    canonical form.
//   claude-code  billing-header-cch  the same block with `cch=<5 hex>;`, a value recomputed for
//                                    every request (from the body): varies per request. 2.1.36
//                                    through the 2.1.17x versions; 2.1.328 sends no cch.
//                                    Rule: as above.
//   codex        item-ids            every Responses input item's `id` (`msg_<uuid>`),
//                                    `prompt_cache_key`, `client_metadata` (its ids per session,
//                                    its turn id per turn, its member order per request): not
//                                    prompt text (never rendered), no rule needed.
//   opencode     (none)              two one-shot runs send byte-identical requests.
// Sources: Claude Code's block and its cch: anthropics/claude-code#68900 (2.1.177 sends cch;
// two consecutive requests of one session differ there), musistudio/claude-code-router#1220
// (versions >= 2.1.36 send cch per request; `CLAUDE_CODE_ATTRIBUTION_HEADER=0` turns the block
// off) and #1372; servers that leave it out of the prompt: waybarrios/vllm-mlx#277 (the line
// removed before the template; 0.07% -> 99.9% prefix match), ggml-org/llama.cpp#21793 (cch
// replaced by a constant), sgl-project/sglang#21064; ollama/ollama#14918 (its launcher sets
// the variable above). The per-session suffix without cch: strata's captures of 2.1.328.
//
// A block is recognised by its form, whatever version it names, so a later version that brings
// cch back is handled too; the version ranges say which versions send which form.

namespace strata {

enum class Client { kClaudeCode, kCodex, kGeminiCli, kOpencode, kGoose, kCopilot, kCursor };

// "claude-code", "codex", "gemini-cli", "opencode", "goose", "copilot", "cursor".
const char* ClientName(Client client);
// The client named `name` (as ClientName spells it); nullopt for any other name.
std::optional<Client> ClientFromName(std::string_view name);
// Every client, in the order above (the column order of discover --compare).
std::vector<Client> AllClients();
// "claude-code, codex, ..." for messages.
std::string ClientNameList();

// How often a value changes.
enum class Variation { kPerSession, kPerRequest };

// What strata does with it.
enum class VaryingTextRule {
  kLeftOut,      // left out of the local prompt and the canonical form (the text is dropped)
  kNotRendered,  // not prompt text in the first place (an id, a metadata member): nothing to do
};

// One entry of the registry.
struct VaryingText {
  Client client = Client::kClaudeCode;
  std::string_view id;     // "billing-header", "billing-header-cch", "item-ids"
  std::string_view where;  // the request member, e.g. "anthropic-messages system[0]"
  std::string_view first_version, last_version;  // inclusive; "" = open end
  Variation varies = Variation::kPerSession;
  VaryingTextRule rule = VaryingTextRule::kLeftOut;
  std::string_view source;  // where the behaviour is documented or was observed
};

// Every entry, in the order of the table above.
std::span<const VaryingText> VaryingTextRegistry();

// Claude Code's billing block, parsed: `x-anthropic-billing-header: ` then `key=value;` fields
// separated by single spaces, on one line (a trailing newline is part of the block).
struct BillingHeader {
  std::string version;             // cc_version without its suffix, e.g. "2.1.328"
  std::string suffix;              // the 3 hex digits after the version ("" when absent)
  std::string entrypoint;          // cc_entrypoint ("cli", "sdk-cli", ...; "" when absent)
  std::optional<std::string> cch;  // the per-request value, when sent
  size_t length = 0;  // bytes of `text` the block takes (its line and the newline after)
  const VaryingText* entry = nullptr;  // billing-header or billing-header-cch
};

// The billing block at the start of `text` (a system block's or the system string's text), or
// nullopt when `text` does not start with one of that form (a line that starts with the name
// but has a field without '=' or a missing ';' is not the block: it stays prompt text).
std::optional<BillingHeader> ParseBillingHeader(std::string_view text);

// Options of the rules: `keep` disables kLeftOut (strata serve --keep-client-text).
struct ClientTextOptions {
  bool keep = false;
};

// `text` without the varying client text it starts with (the billing block's line), and the
// entry that matched (nullptr when nothing was left out; then the result equals `text`).
struct ClientTextResult {
  std::string_view text;
  const VaryingText* left_out = nullptr;
};
ClientTextResult LeaveOutVaryingText(std::string_view system_text,
                                     const ClientTextOptions& options = {});

}  // namespace strata

namespace STRATA_EXPORT strata {

enum class SourceOrigin {
  kGlobal,   // a global file from the user config dir
  kProject,  // a cascade file between the project root and the working directory
  kLocal,    // a personal local file (AGENTS.local.md, CLAUDE.local.md)
  kImport,   // a file reached through an `@path` import
  kNested,   // a file below the working directory, delivered by SubdirectoryTracker
};

// "global", "project", "local", "import", "nested".
const char* SourceOriginName(SourceOrigin origin);

// Text hygiene applied to every file before any other rule sees it: a UTF-8 BOM is stripped, CRLF
// and lone CR become LF, a binary file (a NUL byte) or invalid UTF-8 is refused with a diagnostic,
// invisible characters are flagged.
struct HygieneOptions {
  bool normalize_nfc = true;  // utf8proc NFC; off keeps the code points as written
  bool strip_tags = true;  // remove Unicode tag characters U+E0000..U+E007F (reported either way)
};

// Size budgets. Over budget, the start and the end of a file's text are kept and a marker line
// `[strata: <file> truncated: <N> of <M> bytes cut]` stands where the middle was; a cut never
// falls inside a UTF-8 code point and the marker's own bytes are not counted. The total budget is
// spent in precedence order (most general first).

// Counts the tokens of a text with some tokenizer; optional.
using TokenCounter = std::function<size_t(std::string_view text)>;

struct Budget {
  size_t per_file_bytes = size_t{64} * 1024;  // 0: no per-file byte limit
  size_t total_bytes = size_t{256} * 1024;    // 0: no total byte limit; spent in source order
  TokenCounter count_tokens;                  // unset: token limits are ignored
  size_t per_file_tokens = 0;                 // 0: no per-file token limit
  size_t total_tokens = 0;                    // 0: no total token limit
  // false: a file over budget keeps only its head, with no marker (Codex's project-doc budget);
  // the truncated warning then says "cut at byte N".
  bool keep_tail = true;
};

// kLoadAll and kFirstOnly decide per directory. kFirstNameInTree (opencode) decides once for the
// whole chain: the first name of `file_names` that exists in any directory from the working
// directory up to the root wins, and that name loads from every directory that has it; the
// other names are never read (a `skipped-by-rule` note for each that exists).
enum class SameDirectoryRule { kLoadAll, kFirstOnly, kFirstNameInTree };

// The order of the project files (each one still followed by its imports). kRootFirst: the
// project root first, down to the working directory (strata, Codex, Claude Code, Goose).
// kWorkingDirFirst: the working directory first, up to the root (opencode's findUp order).
// kPathOrder: by absolute path, byte order (gemini-cli sorts its environment memory paths).
enum class ProjectOrder { kRootFirst, kWorkingDirFirst, kPathOrder };

// The hard cap on ImportOptions::max_depth: a larger value counts as this (with a note in the
// `import-depth` warning). Imports are walked with an explicit stack, never by recursion.
inline constexpr int kMaxImportDepthCap = 64;

struct ImportOptions {
  bool enabled = true;  // false: `@path` is plain text (Codex, opencode, Copilot, Cursor)
  int max_depth = 5;    // a cascade file is depth 0; an import deeper than this is refused
  // Import tokens followed in one discovery (or one ExpandImports); the rest get one
  // `import-limit` warning and are not followed (nor reported one by one).
  size_t max_imports = 1000;
  // Total bytes of imported files in one discovery (or one ExpandImports); an import that would
  // pass it gets an `import-limit` warning and is not loaded.
  size_t max_import_bytes = size_t{16} * 1024 * 1024;
  // Outside the project root (CLI --allow-outside-root, --allow-dir DIR): every path discovery
  // opens (cascade files, imports) is opened through a descriptor of the root with
  // openat2(RESOLVE_BENEATH) or an O_NOFOLLOW walk, so a symlink to outside the root (or one
  // swapped in mid-run) is refused with an `import-outside-root` or `outside-root` warning unless
  // one of these allows where it resolves.
  bool allow_outside_root = false;  // true: targets outside the project root load too
  std::vector<std::filesystem::path> allowed_dirs;  // extra directories imports and files may reach
  // What `~/` means; empty: `~/` imports are refused with a note. A target written with `~/` may
  // lie anywhere under home_dir.
  std::filesystem::path home_dir;
  // true: an import whose target git ignores (.gitignore, .git/info/exclude, core.excludesFile;
  // git's own rules via libgit2) is not loaded: an `import-gitignored` note. strata's discovery
  // default is false (a personal file such as an ignored CLAUDE.local.md import loads, as the
  // user meant); the claude-code and goose profiles and `strata compile` (whose targets are
  // committed) set it. Applies only when the project root is a git repository.
  bool skip_gitignored = false;
};

struct DiscoverOptions {
  std::filesystem::path working_dir;                // required; must exist
  std::vector<std::filesystem::path> global_files;  // absent ones are skipped silently
  // Set: the project root, markers are not searched (the working directory must lie below it).
  std::filesystem::path project_root;
  std::vector<std::string> root_markers = {".git"};
  bool walk_to_filesystem_root = false;  // see the header comment (no marker found)
  // Names looked up in each directory, in order; may hold relative paths such as
  // ".claude/CLAUDE.md".
  // ".claude/CLAUDE.md" and ".claude/rules/**/*.md" are Claude Code's (a name whose last segment
  // holds `*` or `?` is a pattern, `**/` searching below; matches in byte order). A rule file
  // whose frontmatter limits it to some paths (`paths:`, `applyTo:`, an `.mdc` without
  // `alwaysApply: true`) is skipped with a `conditional-rule` note.
  std::vector<std::string> file_names = {"AGENTS.md", "CLAUDE.md", ".claude/CLAUDE.md",
                                         ".claude/rules/**/*.md", "GEMINI.md"};
  std::vector<std::string> local_file_names = {"AGENTS.local.md", "CLAUDE.local.md"};
  // Names looked up in every ancestor above the project root, from `/` down, before the project
  // files (Claude Code reads CLAUDE.md in every ancestor of the working directory). Each file is
  // contained to its own directory; no patterns. The project root, and with it the containment
  // of the project files, is still found by root_markers.
  std::vector<std::string> above_root_file_names;
  // Names looked up in the project root only, before file_names there (Copilot's
  // `.github/copilot-instructions.md`); patterns allowed as in file_names.
  std::vector<std::string> root_file_names;
  SameDirectoryRule same_directory = SameDirectoryRule::kLoadAll;
  ProjectOrder project_order = ProjectOrder::kRootFirst;
  // The files the agent works on (absolute, or relative to working_dir; they need not exist). A
  // conditional rule (see file_names) whose patterns match one of them loads, with
  // Source::condition saying why, instead of being skipped. Patterns are relative to the
  // directory holding the rule's `.claude/`, `.github/` or `.cursor/` directory (else the project
  // root): `*` and `?` stay within one path segment, `**` spans any number, `{a,b}` alternates, a
  // value may list several patterns separated by commas.
  std::vector<std::filesystem::path> touched_paths;
  ImportOptions imports;
  Budget budget;  // 0 disables a limit
  HygieneOptions hygiene;
  size_t max_read_bytes = size_t{4} * 1024 * 1024;  // larger files are refused unread
  // true: the [imports] table of strata.toml at the project root applies too (the CLI sets it):
  // allow_outside_root is or-ed in, allowed_dirs are added, and max_depth replaces
  // imports.max_depth when that is still the default 5. A strata.toml that does not parse is a
  // `project-config` warning and changes nothing.
  bool project_config = false;
};

struct Source {
  std::filesystem::path path;  // absolute, as found (a symlink is not resolved)
  std::string display_path;    // relative to the working directory when inside the project root
                               // (or the global file's directory), else absolute; used in
                               // diagnostics and truncation markers
  SourceOrigin origin = SourceOrigin::kProject;
  std::string imported_by;  // display path of the importing file (kImport), else empty
  int import_depth = 0;     // 0 for cascade and nested files
  size_t bytes = 0;         // UTF-8 bytes after hygiene, before any budget
  std::string content;      // after hygiene and budgets (a truncation marker when cut)
  bool truncated = false;
  size_t bytes_cut = 0;  // bytes of `bytes` that a budget removed
  // A conditional rule loaded because a touched path matched it: "paths: src/**/*.ts (src/a.ts)";
  // empty for every other source.
  std::string condition;
};

// A rule file whose frontmatter limits it to some paths, as discovery met it.
struct ConditionalRule {
  std::string path;                   // display path, as Source::display_path
  std::string key;                    // the frontmatter key that decided: paths, applyTo, globs
  std::vector<std::string> patterns;  // as written (Cursor: may be empty, description only)
  std::string matched;                // the touched path (display form) that applied it, or empty
};

struct Discovery {
  std::filesystem::path working_dir;    // canonical (symlinks resolved)
  std::filesystem::path project_root;   // canonical
  std::string root_marker;              // the marker that decided the root; empty when none matched
  std::vector<Source> sources;          // in precedence order, most general first
  std::vector<Diagnostic> diagnostics;  // in the order they were found
  std::vector<ConditionalRule> conditional_rules;  // every one met, applied or not, in order
};

// Runs the cascade for options.working_dir. Errors: kNotFound when the working directory does not
// exist, kInvalidArgument when it is not a directory or lies outside options.project_root.
// Everything else (missing imports, binary files, cycles, truncation) is a diagnostic; the result
// is deterministic for the same tree.
Result<Discovery> Discover(const DiscoverOptions& options);

// Discover() plus every instruction file below the working directory, as a SubdirectoryTracker
// touching each directory in sorted depth-first order would deliver them (origin kNested).
// Directories named .git, .hg and .svn and symlinked directories are not entered.
Result<Discovery> DiscoverAll(const DiscoverOptions& options);

// The sources joined for a model: each one under a header line `<!-- source: PATH (ORIGIN) -->`,
// separated by one blank line, one final newline.
std::string AssembleSources(const std::vector<Source>& sources);

struct TouchResult {
  std::vector<Source> sources;  // newly relevant files, root first, each with its imports
  std::vector<Diagnostic> diagnostics;
};

// Delivers nested instruction files on demand. Each directory is scanned once, the first time a
// path at or below it is touched; each file is delivered once over the tracker's life. The
// per-file budget applies; the total budget does not (these files go to the message tail).
class SubdirectoryTracker {
 public:
  // `initial` is what Discover(options) returned: its files count as delivered already.
  SubdirectoryTracker(const DiscoverOptions& options, const Discovery& initial);
  ~SubdirectoryTracker();
  SubdirectoryTracker(SubdirectoryTracker&&) noexcept;
  SubdirectoryTracker& operator=(SubdirectoryTracker&&) noexcept;

  // `path`: a file or directory (it need not exist), absolute or relative to the working directory.
  // Returns the instruction files of every directory from the project root down to it that were
  // not delivered before. A path outside the project root returns nothing.
  TouchResult Touch(const std::filesystem::path& path);

 private:
  friend Result<Discovery> DiscoverAll(const DiscoverOptions& options);
  class Impl;
  std::unique_ptr<Impl> impl_;
};

// ---------------------------------------------------------------------------------------------
// Client profiles: what one client loads, by that client's documented rules (docs/discover.md
// states each rule and where it is documented). `strata discover --client NAME`.

// Client, ClientName, ClientFromName, AllClients, ClientNameList: strata/discover.h.

// The settings of a client's own configuration that change what it loads. Unset fields keep the
// client's defaults.
struct ClientSettings {
  // Codex, $CODEX_HOME/config.toml: `project_doc_fallback_filenames` (tried after AGENTS.md, in
  // order), `project_root_markers` (an empty list: no parent directories), `project_doc_max_bytes`
  // (0: no project files at all).
  std::vector<std::string> codex_fallback_names;
  std::optional<std::vector<std::string>> codex_root_markers;
  std::optional<size_t> codex_max_bytes;
  // gemini-cli, ~/.gemini/settings.json then <working dir>/.gemini/settings.json (the later one
  // wins): `context.fileName` (a string or a list; GEMINI.md stays after the names given) and
  // `context.memoryBoundaryMarkers` (an empty list: no parent directories).
  std::vector<std::string> gemini_context_file_names;
  std::optional<std::vector<std::string>> gemini_boundary_markers;
};

// Reads `client`'s settings from its own config files: Codex `codex_home`/config.toml (the caller
// passes $CODEX_HOME, else ~/.codex), gemini-cli `home`/.gemini/settings.json and
// `working_dir`/.gemini/settings.json (comments allowed). Other clients have none that strata
// applies. A missing file is no error; a file that does not parse, or a key of the wrong type, is
// kParse naming the file, line and key. Empty `home` / `codex_home`: those files are not read.
Result<ClientSettings> ReadClientSettings(Client client, const std::filesystem::path& working_dir,
                                          const std::filesystem::path& home,
                                          const std::filesystem::path& codex_home);

// DiscoverOptions that apply `client`'s rules in `working_dir`: file names and precedence per
// directory, root markers, global files under `home` (none when `home` is empty), import syntax
// and limits, budgets, with `settings` applied. Fields a caller sets afterwards (hygiene,
// max_read_bytes, touched_paths) keep their meaning.
DiscoverOptions ClientOptions(Client client, const std::filesystem::path& working_dir,
                              const std::filesystem::path& home,
                              const ClientSettings& settings = {});

// One client's view of a directory, for --compare.
struct ClientView {
  Client client = Client::kClaudeCode;
  Discovery discovery;             // Discover(ClientOptions(...))
  std::vector<std::string> notes;  // "pkg/AGENTS.md cut at byte 8", "AGENTS.md not read here",
                                   // "CLAUDE.md shadowed by AGENTS.md", in a fixed order
};

struct Comparison {
  std::filesystem::path working_dir;  // canonical
  std::vector<std::string> files;     // every file some client loads or holds as a conditional
                                   // rule (ClientView::discovery.conditional_rules), display paths,
                                   // in the order they are first met going through the clients
  std::vector<ClientView> views;  // AllClients() order
};

// Tokens of a text for the comparison when no TokenCounter is given: ceil(bytes / 4).
size_t EstimateTokens(std::string_view text);

struct CompareOptions {
  std::filesystem::path home;        // global files and client settings below it; empty: none
  std::filesystem::path codex_home;  // Codex's config dir; empty: home/.codex (when home is set)
  std::vector<std::filesystem::path> touched_paths;  // DiscoverOptions::touched_paths
  bool read_settings = true;  // false: every client with its defaults (no ReadClientSettings)
};

// Runs every client's profile in `working_dir` (each client's own settings read with
// ReadClientSettings; one that does not parse is a note and the defaults apply) and lists, per
// client, what it truncates, shadows, applies only to some paths or never sees. Errors as
// Discover.
Result<Comparison> CompareClientsWith(const std::filesystem::path& working_dir,
                                      const CompareOptions& options);
// Every client of `comparison` that loads the same instructions twice: a file strata compile
// generated (its header names a source) together with that source, two files compiled from one
// source (each carries its shared bands), or two files with the same text. One `double-load`
// warning per copy, naming the client and both files, in view order.
std::vector<Diagnostic> DoubleLoads(const Comparison& comparison);

// CompareClients with global files under `home` and nothing touched.
Result<Comparison> CompareClients(const std::filesystem::path& working_dir,
                                  const std::filesystem::path& home);

struct ExpandedText {
  std::string text;                     // the file after hygiene, each import replaced by the
                                        // (recursively expanded) text it names
  std::vector<Source> imported;         // the files that were inlined, in the order they were read
  std::vector<Diagnostic> diagnostics;  // refused, missing, cyclic and too-deep imports
};

// Import resolution for a single source file (what `strata compile` uses when its source has
// imports): same rules as Discover (options.imports, root markers from the file's directory,
// hygiene), no budgets. A file imported twice is inlined the first time only.
// Errors: kNotFound, kIo, kParse (binary), kInvalidUtf8 for `file` itself.
Result<ExpandedText> ExpandImports(const std::filesystem::path& file,
                                   const DiscoverOptions& options);

// ExpandImports for a file whose current text is `bytes` (e.g. a source with a generated block
// spliced in but not yet written): `file` still decides where relative imports resolve from.
// Errors: kIo when `file` cannot be stat'ed, kParse / kInvalidUtf8 for `bytes`.
Result<ExpandedText> ExpandImportsInText(const std::filesystem::path& file, std::string_view bytes,
                                         const DiscoverOptions& options);

}  // namespace strata
