// markers.h: the marker lines an instruction source may hold, as HTML comments alone on their line.
//
// Band markers open a cache band: `<!-- strata:head -->`, `<!-- strata:config -->`,
// `<!-- strata:tail -->`, or the same with `praetor:` (the spelling of the praetor tool strata is
// compatible with). Generated-block markers fence a block that `strata compile` rewrites from
// strata.toml: `<!-- strata:begin NAME -->` ... `<!-- strata:end NAME -->` (NAME without blanks).
// Client-section markers fence text that reaches one client only, whatever headings it holds:
// `<!-- strata:for CLIENT -->` ... `<!-- strata:end-for -->` (CLIENT: a target id such as
// `claude-code`, or a display name or alias as a `## <Client>` heading names it).
// Every kind may be indented by up to three spaces and followed by blanks. Whether a line is in a
// code block (where a marker is text) is the caller's business.
#pragma once

#include <string>
#include <string_view>

#include "bands/bands.h"

namespace strata {

// True when `line` (without its newline) is a band marker. Sets *band when it is and band is set.
bool ParseBandMarker(std::string_view line, Band* band);

enum class BlockMarkerVerb { kBegin, kEnd };

// The NAME of `<!-- strata:begin NAME -->` (kBegin) or `<!-- strata:end NAME -->` (kEnd) on `line`,
// or "" when the line is no such marker.
std::string BlockMarkerName(std::string_view line, BlockMarkerVerb verb);

enum class ClientMarker { kNone, kFor, kEndFor };

// Whether `line` opens (`<!-- strata:for CLIENT -->`, *client set to CLIENT when client is set)
// or closes (`<!-- strata:end-for -->`) a client section.
ClientMarker ParseClientMarker(std::string_view line, std::string* client);

// The marker lines of a client section for `client`, LF-terminated.
std::string ClientMarkerLine(std::string_view client);
inline constexpr std::string_view kEndForLine = "<!-- strata:end-for -->\n";

// True when `line` is a begin or end marker of a generated block (any name).
bool IsBlockMarker(std::string_view line);

// The marker line for block `name`, LF-terminated: `<!-- strata:begin NAME -->\n` or the end one.
std::string BlockMarkerLine(std::string_view name, BlockMarkerVerb verb);

}  // namespace strata
