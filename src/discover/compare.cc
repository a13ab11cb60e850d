// compare.cc: every client's profile run on one directory, and what each one truncates, shadows
// or never sees (`strata discover --compare`).
#include <algorithm>

#include "discover/generated_copy.h"

#include "strata/discover.h"

namespace strata {

namespace fs = std::filesystem;

namespace {

// Truncations and shadowed or conditional files, from the client's own discovery.
void NoteWhatTheClientCut(ClientView* view) {
  for (const Source& s : view->discovery.sources) {
    if (s.truncated && s.bytes_cut > 0) {
      view->notes.push_back(s.display_path + " cut at byte " +
                            std::to_string(s.bytes - s.bytes_cut) + " of " +
                            std::to_string(s.bytes));
    }
  }
  for (const Diagnostic& d : view->discovery.diagnostics) {
    if (d.kind == "skipped-by-rule") {
      view->notes.push_back(d.where.path + " shadowed (" + d.message + ")");
    } else if (d.kind == "conditional-rule") {
      view->notes.push_back(d.where.path + " only for matching paths (" + d.message + ")");
    } else if (d.kind == "conditional-rule-applied") {
      view->notes.push_back(d.where.path + " applied (" + d.message + ")");
    } else if (d.kind == "symlink-placeholder") {
      view->notes.push_back(d.where.path +
                            " holds only a file name (a symlink checked out as a plain file); "
                            "the client reads that name as its instructions");
    } else if (d.kind == "import-gitignored" || d.kind == "import-depth") {
      view->notes.push_back(d.where.path + ":" + std::to_string(d.where.line) + ": " + d.message);
    }
  }
}

// True when the client loads `file` or a note already says why it does not.
bool LoadsOrExplains(const ClientView& view, const std::string& file) {
  return std::any_of(view.discovery.sources.begin(), view.discovery.sources.end(),
                     [&](const Source& s) { return s.display_path == file; }) ||
         std::any_of(view.discovery.diagnostics.begin(), view.discovery.diagnostics.end(),
                     [&](const Diagnostic& d) {
                       return d.where.path == file &&
                              (d.kind == "skipped-by-rule" || d.kind == "conditional-rule" ||
                               d.kind == "conditional-rule-applied");
                     });
}

}  // namespace

size_t EstimateTokens(std::string_view text) { return (text.size() + 3) / 4; }

namespace {

// The client's profile with its own settings; settings that do not parse leave the defaults, and
// `note` says so.
DiscoverOptions ProfileFor(Client client, const fs::path& working_dir,
                           const CompareOptions& options, std::string* note) {
  fs::path codex_home = options.codex_home;
  if (codex_home.empty() && !options.home.empty()) codex_home = options.home / ".codex";
  Result<ClientSettings> settings =
      options.read_settings ? ReadClientSettings(client, working_dir, options.home, codex_home)
                            : Result<ClientSettings>(ClientSettings{});
  if (!settings) {
    *note = "settings not applied (" + FormatError(settings.error()) + ")";
    settings = ClientSettings{};
  }
  DiscoverOptions profile = ClientOptions(client, working_dir, options.home, *settings);
  profile.touched_paths = options.touched_paths;
  return profile;
}

void AddFile(const std::string& file, std::vector<std::string>* files) {
  if (std::find(files->begin(), files->end(), file) == files->end()) files->push_back(file);
}

}  // namespace

namespace {

// The paragraphs (runs of non-blank lines) of a compiled file's body: frontmatter, strata's
// header and footer comments left out, since every compiled file carries its own.
std::vector<std::string_view> BodyParagraphs(std::string_view text) {
  std::vector<std::string_view> out;
  if (text.starts_with("---\n")) {
    size_t close = text.find("\n---\n", 3);
    if (close != std::string_view::npos) text.remove_prefix(close + 5);
  }
  size_t pos = 0;
  while (pos < text.size()) {
    while (pos < text.size() && text[pos] == '\n') ++pos;
    size_t end = text.find("\n\n", pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view para = text.substr(pos, end - pos);
    // A heading alone (`## Testing`) is no text of its own: two files may well share one.
    const bool lone_heading = para.starts_with("#") && para.find('\n') == std::string_view::npos;
    if (!para.empty() && !para.starts_with("<!--") && !lone_heading) out.push_back(para);
    pos = end;
  }
  return out;
}

// True when two files compiled from one source share text (a paragraph): both carry its shared
// bands. A client's own-section file (compile writes only that when the client loads the shared
// text from another compiled file) shares none.
bool ShareText(std::string_view a, std::string_view b) {
  const std::vector<std::string_view> pa = BodyParagraphs(a);
  const std::vector<std::string_view> pb = BodyParagraphs(b);
  return std::any_of(pa.begin(), pa.end(), [&](std::string_view p) {
    return std::find(pb.begin(), pb.end(), p) != pb.end();
  });
}

// DoubleLoads for one view.
void DoubleLoadsOf(const ClientView& view, std::vector<Diagnostic>* out_list) {
  std::vector<Diagnostic>& out = *out_list;
  {
    const std::vector<Source>& sources = view.discovery.sources;
    for (size_t i = 0; i < sources.size(); ++i) {
      const Source& copy = sources[i];
      std::optional<std::string> from = discover::GeneratedSourceName(copy.content);
      for (size_t j = 0; j < sources.size(); ++j) {
        const Source& other = sources[j];
        if (i == j) continue;
        const bool generated = from && other.path.lexically_normal() ==
                                           (copy.path.parent_path() / *from).lexically_normal();
        // A hand copy counts too: the same bytes loaded from two files (the later one reported).
        const bool same_text = j < i && !copy.content.empty() && copy.content == other.content;
        // Two project files compiled from one source both carry its shared bands (a strata.md
        // source compiled to AGENTS.md for one client and to this client's own file). Generated
        // headers name the source relative to the project root, so the names compare as is.
        const auto in_project = [](const Source& s) {
          return !s.display_path.empty() && s.display_path[0] != '/' && s.display_path[0] != '~';
        };
        std::optional<std::string> other_from =
            j < i && from && in_project(copy) && in_project(other)
                ? discover::GeneratedSourceName(other.content)
                : std::nullopt;
        const bool same_source =
            other_from && *other_from == *from && ShareText(copy.content, other.content);
        // A hand-written file beside a compiled one that carries its text: an always-applied
        // file `strata adopt --from` merged and nobody moved aside (`.cursor/rules/base.mdc`
        // beside the AGENTS.md and strata.mdc compiled from it). The compiled file's own source
        // loaded beside it is the `generated` case, reported there.
        std::optional<std::string> compiled_from =
            !from && in_project(copy) && in_project(other)
                ? discover::GeneratedSourceName(other.content)
                : std::nullopt;
        const bool left_beside = compiled_from && copy.display_path != *compiled_from &&
                                 (other.path.parent_path() / *compiled_from).lexically_normal() !=
                                     copy.path.lexically_normal() &&
                                 ShareText(copy.content, other.content);
        if (!generated && !same_text && !same_source && !left_beside) continue;
        out.push_back(
            {Severity::kWarning,
             "double-load",
             std::string(ClientName(view.client)) + " loads " + other.display_path + " and " +
                 copy.display_path +
                 (generated     ? " (generated from it by strata compile)"
                  : same_source ? " (both compiled from " + *from + ": its shared bands twice)"
                  : same_text   ? " (the same text)"
                                : " (hand-written; its text is compiled into the other from " +
                                    *compiled_from + ")") +
                 ": the same instructions twice. " +
                 (left_beside && !same_text
                      ? "Move the hand-written file aside or delete it (`strata adopt --from "
                        "FILE... --remove-adopted` moves the files it merges to .strata/adopted/)"
                      : "Drop the copy's target from strata.toml, or run `strata compile`, which "
                        "no longer writes a copy a client reads beside its source"),
             {copy.display_path}});
        break;
      }
    }
  }
}

}  // namespace

Result<Comparison> CompareClientsWith(const fs::path& working_dir, const CompareOptions& options) {
  Comparison out;
  for (Client client : AllClients()) {
    std::string settings_note;
    DiscoverOptions profile = ProfileFor(client, working_dir, options, &settings_note);
    STRATA_TRY_ASSIGN(Discovery d, Discover(profile));
    out.working_dir = d.working_dir;
    for (const Source& s : d.sources) AddFile(s.display_path, &out.files);
    for (const ConditionalRule& rule : d.conditional_rules) AddFile(rule.path, &out.files);
    ClientView view{client, std::move(d), {}};
    if (!settings_note.empty()) view.notes.push_back(settings_note);
    NoteWhatTheClientCut(&view);
    std::vector<Diagnostic> doubled;
    DoubleLoadsOf(view, &doubled);
    for (const Diagnostic& d : doubled) {
      const size_t from = d.message.find(' ') + 1;  // after the client's name
      view.notes.push_back(d.message.substr(from, d.message.find(" twice. ") + 6 - from));
    }
    out.views.push_back(std::move(view));
  }
  for (ClientView& view : out.views) {
    for (const std::string& file : out.files) {
      if (!LoadsOrExplains(view, file)) view.notes.push_back(file + " not read here");
    }
  }
  return out;
}

std::vector<Diagnostic> DoubleLoads(const Comparison& comparison) {
  std::vector<Diagnostic> out;
  for (const ClientView& view : comparison.views) DoubleLoadsOf(view, &out);
  return out;
}

Result<Comparison> CompareClients(const fs::path& working_dir, const fs::path& home) {
  return CompareClientsWith(working_dir, CompareOptions{home, {}, {}, true});
}

}  // namespace strata
