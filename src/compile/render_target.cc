// render_target.cc: frontmatter per target format, then header, bands and digest footer.
#include "compile/render_target.h"

#include "targets/generated_header.h"

namespace strata {

namespace {

std::string Frontmatter(TargetFormat format, std::string_view source_name) {
  switch (format) {
    case TargetFormat::kCursorMdc:
      // Cursor reads description/globs/alwaysApply; globs stays empty (unquoted) for an always
      // rule.
      return "---\ndescription: Project instructions compiled from " + std::string(source_name) +
             "\nglobs:\nalwaysApply: true\n---\n";
    case TargetFormat::kWindsurfRule:
      return "---\ntrigger: always_on\n---\n";
    case TargetFormat::kKiroSteering:
      return "---\ninclusion: always\n---\n";
    case TargetFormat::kMarkdown:
      return "";
  }
  return "";
}

}  // namespace

std::string RenderTarget(const ClientTarget& target, const BandedSource& banded,
                         std::string_view source_name, const RenderEnv& /*env: must not be read*/) {
  std::string body;
  for (Band band : {Band::kHead, Band::kConfig, Band::kTail}) {
    std::string text = BandText(banded, band, target.id);
    if (text.empty()) continue;
    if (!body.empty()) body.push_back('\n');
    body += text;
  }
  std::string out = Frontmatter(target.format, source_name) + GeneratedHeader(source_name);
  if (!body.empty()) out.append("\n").append(body);
  return out + DigestFooter(out);
}

}  // namespace strata
