// markers.cc: recognises band and generated-block marker lines.
#include "bands/markers.h"

#include "base/enum_names.h"

namespace strata {

namespace {

constexpr EnumName<BlockMarkerVerb> kVerbNames[] = {
    {BlockMarkerVerb::kBegin, "begin"},
    {BlockMarkerVerb::kEnd, "end"},
};

// Removes up to three spaces of indentation and any trailing blanks from *line; false when it is
// blank or indented further (then it is no marker).
bool StripMarkerLine(std::string_view* line) {
  size_t indent = line->find_first_not_of(' ');
  if (indent == std::string_view::npos || indent > 3) return false;
  line->remove_prefix(indent);
  while (!line->empty() && (line->back() == ' ' || line->back() == '\t')) line->remove_suffix(1);
  return true;
}

}  // namespace

bool ParseBandMarker(std::string_view line, Band* band) {
  if (!StripMarkerLine(&line) || line.size() < 9 || !line.starts_with("<!-- ") ||
      !line.ends_with(" -->")) {
    return false;
  }
  line = line.substr(5, line.size() - 9);  // "strata:head"
  size_t colon = line.find(':');
  if (colon == std::string_view::npos) return false;
  std::string_view tool = line.substr(0, colon);
  if (tool != "strata" && tool != "praetor") return false;
  std::optional<Band> parsed = ValueOf(kBandNames, line.substr(colon + 1));
  if (!parsed) return false;
  if (band != nullptr) *band = *parsed;
  return true;
}

std::string BlockMarkerName(std::string_view line, BlockMarkerVerb verb) {
  if (line.find("<!-- strata:") == std::string_view::npos || !StripMarkerLine(&line)) return "";
  std::string prefix = "<!-- strata:" + std::string(NameOf(kVerbNames, verb)) + " ";
  constexpr std::string_view kSuffix = " -->";
  if (line.size() <= prefix.size() + kSuffix.size() || !line.starts_with(prefix) ||
      !line.ends_with(kSuffix)) {
    return "";
  }
  std::string_view name = line.substr(prefix.size(), line.size() - prefix.size() - kSuffix.size());
  if (name.find(' ') != std::string_view::npos) return "";
  return std::string(name);
}

ClientMarker ParseClientMarker(std::string_view line, std::string* client) {
  if (line.find("<!-- strata:") == std::string_view::npos || !StripMarkerLine(&line)) {
    return ClientMarker::kNone;
  }
  if (line == kEndForLine.substr(0, kEndForLine.size() - 1)) return ClientMarker::kEndFor;
  constexpr std::string_view kPrefix = "<!-- strata:for ";
  constexpr std::string_view kSuffix = " -->";
  if (line.size() <= kPrefix.size() + kSuffix.size() || !line.starts_with(kPrefix) ||
      !line.ends_with(kSuffix)) {
    return ClientMarker::kNone;
  }
  std::string_view name =
      line.substr(kPrefix.size(), line.size() - kPrefix.size() - kSuffix.size());
  while (!name.empty() && name.front() == ' ') name.remove_prefix(1);
  while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
  if (name.empty()) return ClientMarker::kNone;
  if (client != nullptr) *client = std::string(name);
  return ClientMarker::kFor;
}

std::string ClientMarkerLine(std::string_view client) {
  return "<!-- strata:for " + std::string(client) + " -->\n";
}

bool IsBlockMarker(std::string_view line) {
  return !BlockMarkerName(line, BlockMarkerVerb::kBegin).empty() ||
         !BlockMarkerName(line, BlockMarkerVerb::kEnd).empty();
}

std::string BlockMarkerLine(std::string_view name, BlockMarkerVerb verb) {
  return "<!-- strata:" + std::string(NameOf(kVerbNames, verb)) + " " + std::string(name) +
         " -->\n";
}

}  // namespace strata
