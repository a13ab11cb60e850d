// bands.cc: band markers and client sections located with cmark-gfm's block structure.
//
// MapMarkdownBlocks (cmark-gfm) tells which lines are code and where document-level headings
// start; everything else is a line walk over the source.
#include "bands/bands.h"

#include "bands/markers.h"
#include "markdown/markdown_blocks.h"

namespace strata {

namespace {

bool IsBlank(std::string_view line) {
  return line.find_first_not_of(" \t") == std::string_view::npos;
}

// Drops blank lines at both ends of `text`; the result ends with one newline unless empty.
std::string TrimBlankEdges(std::string_view text) {
  auto lines = SplitLines(text);
  size_t first = 0, last = lines.size();
  while (first < last && IsBlank(lines[first])) ++first;
  while (last > first && IsBlank(lines[last - 1])) --last;
  std::string out;
  for (size_t i = first; i < last; ++i) {
    out.append(lines[i]);
    out.push_back('\n');
  }
  return out;
}

}  // namespace

std::vector<Diagnostic> CheckMarkerSpelling(std::string_view source, std::string_view path) {
  return CheckMarkerSpelling(source, path, MapMarkdownBlocks(source));
}

std::vector<Diagnostic> CheckMarkerSpelling(std::string_view source, std::string_view path,
                                            const MarkdownBlocks& blocks) {
  std::vector<Diagnostic> out;
  auto lines = SplitLines(source);
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string_view line = lines[i];
    if (blocks.in_code[i + 1] || ParseBandMarker(line, nullptr) || IsBlockMarker(line) ||
        ParseClientMarker(line, nullptr) != ClientMarker::kNone) {
      continue;
    }
    size_t open = line.find("<!--");
    if (open == std::string_view::npos) continue;
    size_t name = line.find_first_not_of(" \t", open + 4);
    if (name == std::string_view::npos) continue;
    std::string_view rest = line.substr(name);
    if (rest.substr(0, 7) != "strata:" && rest.substr(0, 8) != "praetor:") continue;
    out.push_back({Severity::kWarning,
                   "marker-spelling",
                   "`" + std::string(line.substr(open)) +
                       "` is not a band marker and reaches every target as text: write exactly "
                       "`<!-- strata:head -->`, `<!-- strata:config -->` or `<!-- strata:tail -->` "
                       "on a line of its own",
                   {std::string(path), static_cast<int>(i) + 1, static_cast<int>(open) + 1}});
  }
  return out;
}

namespace {

// A piece as the line walk found it, before the pieces are put in output order.
struct WalkedPiece {
  BandPiece piece;
  Band origin = Band::kHead;  // the band the piece was written in
};

// Walks the source lines once, cutting a new piece at every band marker, at the start and end
// of every `## <Client>` section and at every client-section marker; records the markers in *out.
std::vector<WalkedPiece> WalkPieces(std::string_view source, const ClientMatcher& match_client,
                                    const MarkdownBlocks& blocks, BandedSource* out) {
  auto lines = SplitLines(source);
  std::vector<WalkedPiece> walked;
  Band band = Band::kHead;
  bool in_section = false;  // inside a `## <Client>` section
  bool in_for = false;      // inside `<!-- strata:for CLIENT -->`: headings are its text
  auto start_piece = [&](std::string client) {
    WalkedPiece w;
    w.origin = band;
    w.piece.band = client.empty() ? band : Band::kConfig;
    w.piece.client_id = std::move(client);
    walked.push_back(std::move(w));
  };
  for (size_t i = 0; i < lines.size(); ++i) {
    int line_no = static_cast<int>(i) + 1;
    std::string_view line = lines[i];
    bool code = blocks.in_code[static_cast<size_t>(line_no)];
    Band marker_band;
    if (!code && ParseBandMarker(line, &marker_band)) {
      out->had_markers = true;
      out->marker_lines.push_back(line_no);
      band = marker_band;
      in_section = false;
      in_for = false;  // an unclosed client section ends at the next band (CheckClientMarkers)
      start_piece("");
      continue;
    }
    if (!code && IsBlockMarker(line)) continue;  // generated-block fences never reach targets
    std::string named;
    if (ClientMarker marker = code ? ClientMarker::kNone : ParseClientMarker(line, &named);
        marker != ClientMarker::kNone) {
      in_section = false;
      in_for = marker == ClientMarker::kFor;
      // An unknown client gets a piece no target takes (CheckClientMarkers reports it).
      std::string client = in_for && match_client ? match_client(named) : "";
      start_piece(in_for ? (client.empty() ? "?" + named : client) : "");
      continue;
    }
    auto heading = blocks.headings.find(line_no);
    if (!code && !in_for && heading != blocks.headings.end() && heading->second.level <= 2) {
      std::string client =
          heading->second.level == 2 && match_client ? match_client(heading->second.text) : "";
      if (!client.empty() || in_section) start_piece(client);
      in_section = !client.empty();
    }
    if (walked.empty()) start_piece("");
    walked.back().piece.text.append(line);
    walked.back().piece.text.push_back('\n');
    walked.back().piece.line_numbers.push_back(line_no);
  }
  return walked;
}

}  // namespace

std::vector<Diagnostic> CheckClientMarkers(std::string_view source, std::string_view path,
                                           const MarkdownBlocks& blocks,
                                           const ClientMatcher& match_client) {
  std::vector<Diagnostic> out;
  auto lines = SplitLines(source);
  int open_line = 0;  // line of the open `strata:for`, 0 when none
  auto unclosed = [&](int ended_at) {
    out.push_back({Severity::kWarning,
                   "unclosed-client-section",
                   "this client section is never closed, so it ends " +
                       (ended_at > 0 ? "at the band marker on line " + std::to_string(ended_at)
                                     : std::string("at the end of the file")) +
                       ": add `<!-- strata:end-for -->` where the client's text ends",
                   {std::string(path), open_line, 1}});
  };
  for (size_t i = 0; i < lines.size(); ++i) {
    const int line_no = static_cast<int>(i) + 1;
    if (blocks.in_code[static_cast<size_t>(line_no)]) continue;
    if (ParseBandMarker(lines[i], nullptr)) {
      if (open_line > 0) unclosed(line_no);
      open_line = 0;
      continue;
    }
    std::string named;
    ClientMarker marker = ParseClientMarker(lines[i], &named);
    if (marker == ClientMarker::kEndFor && open_line == 0) {
      out.push_back({Severity::kWarning,
                     "unopened-client-section",
                     "`<!-- strata:end-for -->` closes no client section (the line is dropped): "
                     "open one with `<!-- strata:for CLIENT -->` or remove the line",
                     {std::string(path), line_no, 1}});
    }
    if (marker == ClientMarker::kFor) {
      if (open_line > 0) {
        out.push_back({Severity::kWarning,
                       "unclosed-client-section",
                       "a client section opens here while the one from line " +
                           std::to_string(open_line) +
                           " is still open; sections do not nest, so that one ends here: close "
                           "it with `<!-- strata:end-for -->` first",
                       {std::string(path), line_no, 1}});
      }
      if (!match_client || match_client(named).empty()) {
        out.push_back({Severity::kError,
                       "unknown-client",
                       "`" + named +
                           "` names no client, so this section would reach no target: use a "
                           "target id (docs/targets.md) or a `## <Client>` heading's name",
                       {std::string(path), line_no, 1}});
      }
    }
    open_line = marker == ClientMarker::kFor      ? line_no
                : marker == ClientMarker::kEndFor ? 0
                                                  : open_line;
  }
  if (open_line > 0) unclosed(0);
  return out;
}

BandedSource SplitBands(std::string_view source, const ClientMatcher& match_client) {
  return SplitBands(source, match_client, MapMarkdownBlocks(source));
}

BandedSource SplitBands(std::string_view source, const ClientMatcher& match_client,
                        const MarkdownBlocks& blocks) {
  BandedSource out;
  std::vector<WalkedPiece> walked = WalkPieces(source, match_client, blocks, &out);
  if (!out.had_markers) {
    // Source order, one band; client sections still reach only their client.
    for (auto& w : walked) {
      w.piece.band = Band::kHead;
      out.pieces.push_back(std::move(w.piece));
    }
    return out;
  }
  auto take = [&](auto keep) {
    for (auto& w : walked) {
      if (keep(w)) out.pieces.push_back(std::move(w.piece));
    }
  };
  take([](const WalkedPiece& w) { return w.piece.band == Band::kHead; });
  take([](const WalkedPiece& w) {
    return w.piece.band == Band::kConfig && w.origin == Band::kConfig;
  });
  take([](const WalkedPiece& w) {
    return w.piece.band == Band::kConfig && w.origin != Band::kConfig;
  });
  take([](const WalkedPiece& w) { return w.piece.band == Band::kTail; });
  return out;
}

std::string BandText(const BandedSource& source, Band band, std::string_view client_id) {
  std::string out;
  size_t size = 0;
  for (const auto& piece : source.pieces) size += piece.band == band ? piece.text.size() + 1 : 0;
  out.reserve(size);
  for (const auto& piece : source.pieces) {
    if (piece.band != band) continue;
    if (!piece.client_id.empty() && piece.client_id != client_id) continue;
    std::string text = TrimBlankEdges(piece.text);
    if (text.empty()) continue;
    if (!out.empty()) out.push_back('\n');
    out += text;
  }
  return out;
}

}  // namespace strata
