// import_scanner.cc: finds `@path` imports and classifies every other `@` (import_scanner.h states
// the rule). Code and comment regions come from markdown_regions.cc (cmark-gfm).
#include <algorithm>
#include <array>

#include "base/enum_names.h"
#include "discover/import_scanner.h"
#include "discover/markdown_regions.h"

namespace strata {

namespace {

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

bool IsIdentStart(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; }
bool IsIdentChar(char c) { return IsIdentStart(c) || (c >= '0' && c <= '9'); }

// Extensions of files people import into instruction text. A dotted token whose tail is not one
// of these (`pytest.fixture`, `app.route`) is a decorator or an attribute, not a file.
bool IsKnownExtension(std::string_view ext) {
  static constexpr std::array<std::string_view, 40> kExtensions = {
      "md",    "markdown", "mdx", "mdc",  "txt", "text", "rst",  "adoc",  "org", "json",
      "jsonc", "yaml",     "yml", "toml", "ini", "cfg",  "conf", "xml",   "csv", "html",
      "sh",    "py",       "js",  "ts",   "tsx", "jsx",  "go",   "rs",    "c",   "h",
      "cc",    "cpp",      "hpp", "java", "kt",  "rb",   "php",  "swift", "sql", "env"};
  std::string lower;
  for (char c : ext) lower.push_back(static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c));
  return std::find(kExtensions.begin(), kExtensions.end(), lower) != kExtensions.end();
}

bool IsTrailingPunctuation(char c) {
  return c == '.' || c == ',' || c == ';' || c == ':' || c == '!' || c == '?' || c == ')' ||
         c == ']' || c == '}' || c == '*' || c == '_' || c == '"' || c == '\'' || c == '`';
}

// Classifies the path after an `@` at a word start.
// `scheme://`: letters, digits, `+`, `-`, `.` after a letter, then `://`.
bool IsUrl(std::string_view path) {
  size_t colon = path.find("://");
  if (colon == std::string_view::npos || colon == 0 || !IsIdentStart(path[0])) return false;
  for (char c : path.substr(0, colon)) {
    if (!IsIdentChar(c) && c != '+' && c != '-' && c != '.') return false;
  }
  return true;
}

ImportRefusal Classify(std::string_view path) {
  if (IsUrl(path)) return ImportRefusal::kUrl;
  if (path.starts_with("./") || path.starts_with("../") || path.starts_with("~/") ||
      path.starts_with("/")) {
    return ImportRefusal::kNone;
  }
  if (path.find_first_of("()\"'<>=,@") != std::string_view::npos) return ImportRefusal::kDecorator;
  size_t slash = path.rfind('/');
  if (slash != std::string_view::npos) {
    std::string_view last = path.substr(slash + 1);
    return last.find('.') != std::string_view::npos ? ImportRefusal::kNone
                                                    : ImportRefusal::kPackageName;
  }
  size_t dot = path.rfind('.');
  if (dot == std::string_view::npos) return ImportRefusal::kMention;
  if (IsKnownExtension(path.substr(dot + 1))) return ImportRefusal::kNone;
  bool dotted_identifier = IsIdentStart(path[0]);
  for (char c : path) dotted_identifier = dotted_identifier && (IsIdentChar(c) || c == '.');
  return dotted_identifier ? ImportRefusal::kDecorator : ImportRefusal::kMention;
}

}  // namespace

const char* ImportRefusalReason(ImportRefusal refusal) {
  static constexpr EnumName<ImportRefusal> kReasons[] = {
      {ImportRefusal::kNone, "an import"},
      {ImportRefusal::kInCodeSpan, "inside a code span"},
      {ImportRefusal::kInCodeBlock, "inside a code block"},
      {ImportRefusal::kInHtmlComment, "inside an HTML comment"},
      {ImportRefusal::kInsideWord, "inside a word (an e-mail address or a version pin)"},
      {ImportRefusal::kPackageName, "a package name (@scope/pkg)"},
      {ImportRefusal::kDecorator, "a decorator or code"},
      {ImportRefusal::kMention, "a mention or decorator without a file extension"},
      {ImportRefusal::kUrl, "a URL, not a file path (write @/abs/path for a local file)"},
  };
  std::string_view reason = NameOf(kReasons, refusal);  // literals: NUL-terminated
  return reason.empty() ? "unknown" : reason.data();
}

ImportScan ScanImports(std::string_view text) { return ScanImports(MarkdownDocument(text)); }

ImportScan ScanImports(const MarkdownDocument& document) {
  const std::string_view text = document.text();
  ImportScan scan;
  if (text.find('@') == std::string_view::npos) return scan;
  std::vector<discover::ExcludedRange> excluded = discover::FindExcludedRanges(document);
  size_t range_index = 0;
  int line = 1;
  size_t line_begin = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\n' || (c == '\r' && (i + 1 >= text.size() || text[i + 1] != '\n'))) {
      ++line;
      line_begin = i + 1;
      continue;
    }
    if (c != '@') continue;
    ImportToken token;
    token.offset = i;
    token.line = line;
    token.column = static_cast<int>(i - line_begin) + 1;
    size_t end = i + 1;
    while (end < text.size() && !IsSpace(text[end])) ++end;
    token.path.assign(text.substr(i + 1, end - i - 1));
    token.length = end - i;

    while (range_index < excluded.size() && excluded[range_index].end <= i) ++range_index;
    ImportRefusal refusal = ImportRefusal::kNone;
    for (size_t r = range_index; r < excluded.size() && excluded[r].begin <= i; ++r) {
      if (i < excluded[r].end) {
        refusal = excluded[r].why;
        break;
      }
    }
    if (refusal == ImportRefusal::kNone && i > 0 && !IsSpace(text[i - 1])) {
      refusal = ImportRefusal::kInsideWord;
    }
    if (refusal == ImportRefusal::kNone) {
      std::string_view path = text.substr(i + 1, end - i - 1);
      while (!path.empty() && IsTrailingPunctuation(path.back())) path.remove_suffix(1);
      if (path.empty()) continue;  // a lone `@` or `@.`: nothing that looks like a reference
      refusal = Classify(path);
      if (refusal == ImportRefusal::kNone) {
        token.path.assign(path);
        token.length = path.size() + 1;
      }
    }
    if (refusal != ImportRefusal::kNone) {
      std::string_view shown = text.substr(i + 1, end - i - 1);
      shown = shown.substr(0, shown.find('`'));  // a code span's closing delimiter
      while (!shown.empty() && (shown.back() == '.' || shown.back() == ',' || shown.back() == ';' ||
                                shown.back() == ':')) {
        shown.remove_suffix(1);
      }
      token.path.assign(shown);
    }
    token.refusal = refusal;
    (refusal == ImportRefusal::kNone ? scan.imports : scan.refused).push_back(std::move(token));
    i = end - 1;
  }
  return scan;
}

}  // namespace strata
