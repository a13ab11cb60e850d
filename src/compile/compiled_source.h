// compiled_source.h: what one compile worked from, kept in its report so that the stability gate
// renders exactly the same source and targets again.
#pragma once

#include <string>
#include <vector>

#include "bands/bands.h"
#include "strata/compile.h"
#include "targets/targets.h"

namespace strata {

// A nested source (e.g. tests/AGENTS.md): instructions for the files under its directory.
struct NestedSource {
  std::string path;     // relative to the root, e.g. "tests/AGENTS.md"
  std::string dir;      // its directory, e.g. "tests"
  std::string text;     // clean, imports inlined
  BandedSource banded;  // `text` split into bands
};

// A path-scoped rule source (compile/rule_sources.h), e.g. .strata/rules/frontend.md.
struct RuleSource {
  std::string path;                  // relative to the root
  std::string name;                  // file stem: the rule's name in every client's form
  std::vector<std::string> globs;    // `paths:`; empty: applied by description
  std::vector<std::string> clients;  // `clients:` target ids; empty: every selected target
  std::string description;           // `description:`, or one naming the globs and the file
  std::string text;                  // clean body, imports inlined, frontmatter dropped
  BandedSource banded;               // `text` split into bands
};

struct CompiledSource {
  std::string text;                           // clean source, blocks spliced, imports inlined
  BandedSource banded;                        // `text` split into bands
  std::vector<const ClientTarget*> selected;  // the compiled targets, in table order
  std::vector<NestedSource> nested;           // nested sources, sorted by path
  std::vector<RuleSource> rules;              // .strata/rules/*.md, sorted by path
  // The selected targets whose client reads the source itself (ReadsItself) and that --target
  // did not name: nothing is written for them, not even their path-scoped rules (they read the
  // nested sources too), so no client loads the same text twice. Their assets and MCP entries
  // are still written.
  std::vector<const ClientTarget*> served;
};

}  // namespace strata
