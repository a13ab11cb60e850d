// import_scanner.h: finds `@path` imports in instruction text.
//
// An import is an `@` at the start of a line or after whitespace, followed by a path, outside code
// spans, fenced and indented code blocks and HTML comments (the regions come from cmark-gfm's
// parse, never from a hand-written fence scanner). Claude Code and Gemini CLI read the same
// syntax. Everything else that carries an `@` is reported as a refused token with the
// reason, so a user can see why `@scope/pkg`, `me@example.com`, `@pytest.fixture` or `@claude` did
// not load.
//
// What counts as a path (the rule, in order):
//   0. `scheme://...` (`@https://x/a.md`, `@http://...`, `@file:///etc/x.md`): a URL, refused
//      (strata reads files by path; write `@/etc/x.md` for a local absolute path).
//   1. `./x`, `../x`, `~/x`, `/x`: always a path.
//   2. A token holding `(`, `)`, `"`, `'`, `<`, `>`, `=`, `,` or a second `@`: code, refused.
//   3. A token with `/`: a path when its last segment holds a dot (`@notes/x.md`); otherwise a
//      package name (`@scope/pkg`, `@types/node`), refused.
//   4. A token without `/`: a path when it holds a dot and the text after the last dot is a known
//      file extension (`@AGENTS.md`, `@rules.yaml`); `@pytest.fixture`, `@app.route` are decorators
//      and `@claude`, `@dataclass` are mentions or decorators, refused. Write `@./README` to import
//      a file without an extension.
// Trailing sentence punctuation (`.,;:!?)]}*_` and quotes) is not part of the path.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "markdown/markdown_blocks.h"

namespace strata {

enum class ImportRefusal {
  kNone,           // an import
  kInCodeSpan,     // inside `inline code`
  kInCodeBlock,    // inside a fenced or indented code block
  kInHtmlComment,  // inside <!-- ... -->
  kInsideWord,     // `@` preceded by a non-space: an e-mail address, `pkg@1.2`, `\@x`
  kPackageName,    // `@scope/pkg`
  kDecorator,      // `@pytest.fixture`, `@app.route(...)`
  kMention,        // `@claude`, `@dataclass`, `@copilot`: no path shape
  kUrl,            // `@https://...`, `@http://...`, `@file:///...`
};

// "inside a code span", "an e-mail address or text inside a word", ... (for diagnostics).
const char* ImportRefusalReason(ImportRefusal refusal);

struct ImportToken {
  size_t offset = 0;  // byte offset of the `@` in the scanned text
  size_t length = 0;  // bytes from the `@` to the end of the path as kept (the text an expansion
                      // replaces); for refused tokens, to the end of the whitespace-free run
  int line = 1;       // 1-based line of the `@`
  int column = 1;     // 1-based byte column of the `@`
  std::string path;   // the path as written (no `@`, trailing punctuation removed); for refused
                      // tokens the whitespace-free run after `@` up to a backtick, without a
                      // trailing `.,;:`
  ImportRefusal refusal = ImportRefusal::kNone;
};

struct ImportScan {
  std::vector<ImportToken> imports;  // in text order
  std::vector<ImportToken> refused;  // in text order; every other `@` in the text
};

// Scans `text` (UTF-8, LF line endings as CleanText leaves them; a stray `\r` counts as
// whitespace). Never fails; any byte string is accepted.
ImportScan ScanImports(std::string_view text);
// The same over a parse the caller shares with other passes (see MarkdownDocument).
ImportScan ScanImports(const MarkdownDocument& document);

}  // namespace strata
