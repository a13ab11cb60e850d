// bands.h: splits an instruction source into cache bands (head, config, tail).
//
// A band marker is an HTML comment alone on its line, outside any code block:
// `<!-- strata:head -->`, `<!-- strata:config -->`, `<!-- strata:tail -->`, or the same with
// `praetor:` (markers.h; praetor is the tool whose format strata keeps). A marker opens its
// band, which runs to the next marker; text before the first marker is head. A `## <Client>`
// section (an H2 whose text names a known client) always joins the config band, runs to the next
// H1/H2 or marker, and reaches only that client's output. A client section may also be fenced by
// markers (markers.h): `<!-- strata:for CLIENT -->` ... `<!-- strata:end-for -->`; it joins the
// config band too, its headings of any level are its own text (they do not end it), and the two
// marker lines reach no target, so a client's file round-trips through the source unchanged. Code
// blocks are found with cmark-gfm (CommonMark fences: backtick and tilde, longer fences, indented
// code, a fence left open at the end of file), so a marker or heading inside one is text.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "base/enum_names.h"
#include "markdown/markdown_blocks.h"
#include "strata/status.h"

namespace strata {

enum class Band { kHead, kConfig, kTail };

// The names markers and messages use for each band.
inline constexpr EnumName<Band> kBandNames[] = {
    {Band::kHead, "head"},
    {Band::kConfig, "config"},
    {Band::kTail, "tail"},
};

// A run of source lines that belongs to one band (and, for a client section, to one client).
struct BandPiece {
  Band band = Band::kHead;
  std::string client_id;  // empty: every target; else only that target (a `## <Client>` section)
  std::string text;       // the lines, LF-terminated, markers removed
  std::vector<int> line_numbers;  // 1-based source line of each line of `text`
};

struct BandedSource {
  // Pieces in output order: every head piece, then config pieces (the config band's own text and
  // client sections written inside it, in source order, then client sections from other bands),
  // then tail pieces. Unmarked sources keep source order with one head band.
  std::vector<BandPiece> pieces;
  bool had_markers = false;  // false: the caller warns and the source compiles in source order
  // Line numbers (1-based) that hold band markers, for diagnostics.
  std::vector<int> marker_lines;
};

// Maps a heading's text (e.g. "Claude Code", case-insensitive) to a client id, or "" when the
// heading names no client. Supplied by the target table so bands need not know the clients.
using ClientMatcher = std::function<std::string(std::string_view heading_text)>;

// Splits `source` (UTF-8, LF line endings, no BOM: run CleanText first). Never fails.
BandedSource SplitBands(std::string_view source, const ClientMatcher& match_client);
// The same with the block map of `source` already made (MapMarkdownBlocks), to parse it once.
BandedSource SplitBands(std::string_view source, const ClientMatcher& match_client,
                        const MarkdownBlocks& blocks);

// The text of `band` for the target `client_id`: its pieces (common ones and that client's
// sections) with blank lines trimmed at piece edges, joined by one blank line. "" when empty.
std::string BandText(const BandedSource& source, Band band, std::string_view client_id);

// The client-section markers of `source` checked: a `strata:for` naming no client is an error
// (`unknown-client`: its text would reach no target); a section still open at the next band
// marker, the next `strata:for` or the end of the file (`unclosed-client-section`) and an
// `end-for` with no open section (`unopened-client-section`) are warnings at `path:line`.
std::vector<Diagnostic> CheckClientMarkers(std::string_view source, std::string_view path,
                                           const MarkdownBlocks& blocks,
                                           const ClientMatcher& match_client);

// Lines outside code blocks that look like a strata or praetor marker but are not one (a near-miss
// spelling such as `<!--strata:config-->`, an unknown band such as `<!-- strata:body -->`): each
// is a warning at `path:line:col`, since such a line would otherwise reach every target as text.
std::vector<Diagnostic> CheckMarkerSpelling(std::string_view source, std::string_view path);
std::vector<Diagnostic> CheckMarkerSpelling(std::string_view source, std::string_view path,
                                            const MarkdownBlocks& blocks);

}  // namespace strata
