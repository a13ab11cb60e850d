// volatile_scan.cc: exact-shape scanner for volatile text, and the head-band scan built on it
// (RE2).
#include <re2/re2.h>

#include <algorithm>
#include <memory>

#include "stability/stability.h"
#include "text/text.h"

namespace strata {

namespace {

struct Shape {
  const char* kind;
  std::unique_ptr<RE2> re;  // group 1 is the reported text
};

// A path starts a token: at the start of text or after a blank, quote, bracket, '=' or ':'.
#define STRATA_PATH_START "(?:^|[\\s\"'`(\\[<=:,])"

std::vector<Shape> MakeShapes() {
  std::vector<Shape> shapes;
  auto add = [&](const char* kind, const char* pattern) {
    shapes.push_back({kind, std::make_unique<RE2>(pattern)});
  };
  add("timestamp",
      "(\\b\\d{4}-\\d{2}-\\d{2}[T ]\\d{2}:\\d{2}:\\d{2}(?:\\.\\d+)?(?:Z|[+-]\\d{2}:?\\d{2})?)");
  add("digest", "(\\bsha256:[0-9A-Fa-f]{12,})");
  add("absolute-path", STRATA_PATH_START "(/(?:home|Users|Volumes)/[^/\\s]+(?:/\\S*)?)");
  add("absolute-path", STRATA_PATH_START "(/(?:root|tmp)/\\S*)");
  add("absolute-path", STRATA_PATH_START
      "(/(?:var|mnt|srv|opt|etc|usr|private|workspace|nix)/[^/\\s]+/[^/\\s.,;:!?)'\"`]+\\S*)");
  add("absolute-path", "(?:^|[^A-Za-z0-9_])([A-Za-z]:[\\\\/][A-Za-z0-9_.\\-]+\\S*)");
  add("absolute-path", "(?:^|[^\\\\])(\\\\\\\\[A-Za-z0-9_.\\-]+\\\\[A-Za-z0-9_.$\\-]+\\S*)");
  add("run-counter",
      "(?i)(\\b(?:run|build) ?# ?\\d+|\\brun[_-]id\\s*[:=]\\s*\\S+|"
      "\\bbuild (?:number|no\\.) ?\\d+|\\bbuild[_-]number\\s*[:=]\\s*\\d+)");
  return shapes;
}

// The shapes, compiled on first use and shared by every later scan (RE2 objects are thread-safe
// for matching).
const std::vector<Shape>& Shapes() {
  static const std::vector<Shape> shapes = MakeShapes();
  return shapes;
}

// Trailing sentence punctuation is not part of a path.
std::string_view TrimTrailingPunctuation(std::string_view text) {
  while (!text.empty() &&
         std::string_view(".,;:!?)]'\"`>").find(text.back()) != std::string_view::npos) {
    text.remove_suffix(1);
  }
  return text;
}

std::vector<VolatileMatch> ScanWith(const std::vector<Shape>& shapes, std::string_view text) {
  std::vector<VolatileMatch> out;
  for (const auto& shape : shapes) {
    re2::StringPiece input(text.data(), text.size());
    re2::StringPiece group;
    size_t consumed_base = 0;
    while (RE2::PartialMatch(input, *shape.re, &group)) {
      size_t offset = static_cast<size_t>(group.data() - text.data());
      std::string_view matched(group.data(), group.size());
      if (std::string_view(shape.kind) == "absolute-path")
        matched = TrimTrailingPunctuation(matched);
      out.push_back({shape.kind, std::string(matched), offset});
      consumed_base = offset + std::max<size_t>(group.size(), 1);
      input = re2::StringPiece(text.data() + consumed_base, text.size() - consumed_base);
    }
  }
  std::sort(out.begin(), out.end(), [](const VolatileMatch& a, const VolatileMatch& b) {
    return a.offset != b.offset ? a.offset < b.offset : a.kind < b.kind;
  });
  return out;
}

}  // namespace

std::vector<VolatileMatch> ScanVolatileText(std::string_view text) {
  return ScanWith(Shapes(), text);
}

std::vector<Diagnostic> ScanHeadBand(const BandedSource& banded, std::string_view source_path) {
  const std::vector<Shape>& shapes = Shapes();
  std::vector<Diagnostic> out;
  for (const auto& piece : banded.pieces) {
    if (piece.band != Band::kHead || !piece.client_id.empty()) continue;
    auto lines = SplitLines(piece.text);
    for (size_t i = 0; i < lines.size(); ++i) {
      for (const auto& match : ScanWith(shapes, lines[i])) {
        out.push_back({Severity::kError,
                       match.kind,
                       match.kind + ": " + match.text,
                       {std::string(source_path), piece.line_numbers[i],
                        static_cast<int>(match.offset) + 1}});
      }
    }
  }
  return out;
}

}  // namespace strata
