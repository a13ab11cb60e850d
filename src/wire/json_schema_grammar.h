// json_schema_grammar.h: a JSON Schema as a GBNF grammar, by llama.cpp common's
// json_schema_to_grammar (what llama-server does with `response_format` / `json_schema`), and the
// check that llama.cpp's grammar sampler accepts a GBNF text (llama-server's `grammar`).
#pragma once

#include <string>
#include <string_view>

#include "strata/status.h"

struct llama_vocab;

namespace strata {

// `schema_json`: the schema as JSON text. Errors: kInvalidArgument with common's reason (a schema
// it cannot convert, e.g. an unresolvable $ref).
Result<std::string> GrammarOfJsonSchema(std::string_view schema_json);

// Whether llama.cpp parses `grammar` (GBNF, start rule "root") for `vocab`.
bool GrammarParses(const llama_vocab* vocab, const std::string& grammar);

}  // namespace strata
