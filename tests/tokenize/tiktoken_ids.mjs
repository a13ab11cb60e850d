// tiktoken_ids.mjs: the npm tiktoken package's own token ids of each file, for the agreement test
// of strata's converted OpenAI vocabularies (openai_vocab_test.cc).
//
// Usage: node tiktoken_ids.mjs NODE_MODULES FILE... ; prints one JSON line per file:
// {"file", "o200k_base": [ids], "cl100k_base": [ids]} (encode_ordinary: special-token text is
// plain text, as strata tokenizes a prompt).
import fs from "node:fs";
import { createRequire } from "node:module";

const [nodeModules, ...files] = process.argv.slice(2);
const { get_encoding } = createRequire(nodeModules + "/")("tiktoken");
const encodings = ["o200k_base", "cl100k_base"].map((name) => [name, get_encoding(name)]);
for (const file of files) {
  const text = fs.readFileSync(file, "utf8");
  const line = { file };
  for (const [name, enc] of encodings) line[name] = Array.from(enc.encode_ordinary(text));
  process.stdout.write(JSON.stringify(line) + "\n");
}
for (const [, enc] of encodings) enc.free();
