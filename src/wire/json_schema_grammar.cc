// json_schema_grammar.cc: common's JSON-schema-to-grammar behind strata (see
// json_schema_grammar.h).
#include "wire/json_schema_grammar.h"

#include <json-schema-to-grammar.h>
#include <llama.h>

#include <exception>

namespace strata {

Result<std::string> GrammarOfJsonSchema(std::string_view schema_json) {
  try {
    return json_schema_to_grammar(common_json::parse(std::string(schema_json)));
  } catch (const std::exception& e) {
    return MakeError(ErrorKind::kInvalidArgument,
                     std::string("the JSON Schema cannot be turned into a grammar: ") + e.what());
  }
}

bool GrammarParses(const llama_vocab* vocab, const std::string& grammar) {
  llama_sampler* s = llama_sampler_init_grammar(vocab, grammar.c_str(), "root");
  if (s == nullptr) return false;
  llama_sampler_free(s);
  return true;
}

}  // namespace strata
