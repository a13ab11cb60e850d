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
  // Built in one buffer sized for the whole file (a compile renders every target of every source).
  size_t size = frontmatter.size() + preface.size() + 512;  // 512: header, separators, footer
  for (const auto& piece : banded.pieces) size += piece.text.size() + 1;
  std::string out;
  out.reserve(size);
  out.append(frontmatter).append(GeneratedHeader(source_name));
  out.push_back('\n');  // the line between the header and a body, dropped below if none
  const size_t body_start = out.size();
  out.append(preface);
  for (Band band : {Band::kHead, Band::kConfig, Band::kTail}) {
    std::string text = BandText(banded, band, client_id);
    if (text.empty()) continue;
    if (out.size() > body_start) out.push_back('\n');
    out += text;
  }
  if (out.size() == body_start) out.pop_back();
  out += DigestFooter(out);
  return out;
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
