// render_target.cc: frontmatter per target format, then header, bands and digest footer.
#include "compile/render_target.h"

#include "targets/generated_header.h"
#include "targets/scoped_rules.h"

namespace strata {

std::string TargetFrontmatter(TargetFormat format, std::string_view source_name) {
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
    case TargetFormat::kContinueRule:
      // Continue requires `name`; alwaysApply: true includes the rule in every request.
      return "---\nname: Project instructions from " + std::string(source_name) +
             "\nalwaysApply: true\n---\n";
    case TargetFormat::kAugmentRule:
      return "---\ntype: always_apply\n---\n";
    case TargetFormat::kMarkdown:
      return "";
  }
  return "";
}

std::string RenderFile(std::string_view frontmatter, std::string_view preface,
                       const BandedSource& banded, std::string_view client_id,
                       std::string_view source_name) {
  std::string body(preface);
  for (Band band : {Band::kHead, Band::kConfig, Band::kTail}) {
    std::string text = BandText(banded, band, client_id);
    if (text.empty()) continue;
    if (!body.empty()) body.push_back('\n');
    body += text;
  }
  std::string out = std::string(frontmatter) + GeneratedHeader(source_name);
  if (!body.empty()) out.append("\n").append(body);
  return out + DigestFooter(out);
}

std::string RenderTarget(const ClientTarget& target, const BandedSource& banded,
                         std::string_view source_name, const RenderEnv& /*env: must not be read*/) {
  return RenderFile(TargetFrontmatter(target.format, source_name), "", banded, target.id,
                    source_name);
}

std::string RenderScoped(const ClientTarget& target, const ScopedForm& form,
                         const BandedSource& banded, std::string_view subdir,
                         std::string_view source_name) {
  switch (form.kind) {
    case ScopeKind::kGlobRule:
      return RenderFile(ScopedFrontmatter(form, subdir, source_name), "", banded, target.id,
                        source_name);
    case ScopeKind::kNoteRule:
      return RenderFile(
          TargetFrontmatter(target.format, source_name),
          "These instructions apply only to files under `" + std::string(subdir) + "/`.\n", banded,
          target.id, source_name);
    case ScopeKind::kNestedFile:
      break;
  }
  return RenderFile(TargetFrontmatter(target.format, source_name), "", banded, target.id,
                    source_name);
}

}  // namespace strata
