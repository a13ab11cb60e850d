#!/usr/bin/env bash
# make-openai-vocab.sh: builds the OpenAI vocabularies (o200k_base, cl100k_base) as llama.cpp
# vocabulary files from the rank data of the pinned npm `tiktoken` package (setup-clients.sh), into
# a cache outside the clone. Run by the build (target openai_vocab); fast when up to date.
#
# Usage: make-openai-vocab.sh MAKE_OPENAI_VOCAB TEMPLATE_GGUF OUT_DIR
#   MAKE_OPENAI_VOCAB  the converter (tools/make_openai_vocab)
#   TEMPLATE_GGUF      a llama.cpp models/ggml-vocab-*.gguf, for the non-tokenizer metadata
#   OUT_DIR            where ggml-vocab-<name>.gguf go (replay/explain look there)
# A stamp (OUT_DIR/<name>.source: tiktoken version, encoder and converter hashes) says whether a
# file is current. Without the npm cache this prints why and exits 0: replay and explain then fall
# back to a named proxy vocabulary and say so.
set -euo pipefail
tool=$1 template=$2 out=$3
here=$(cd "$(dirname "$0")" && pwd)
if ! nm=$(bash "$here/setup-clients.sh" 2>/dev/null | tail -n 1) || [ ! -d "$nm/tiktoken/encoders" ]; then
  echo "make-openai-vocab: skipped: no tiktoken package (bash scripts/setup-clients.sh installs it)" >&2
  exit 0
fi
mkdir -p "$out"
exec 9>"$out/.lock"
flock 9
version=$(sed -n 's/.*"version": *"\([^"]*\)".*/\1/p' "$nm/tiktoken/package.json" | head -n 1)
tool_hash=$(sha256sum "$tool" | cut -c1-16)
# o200k_base: llama.cpp's GPT-4o split with \p{M} in the letter classes, as tiktoken's regex has
# them (plain "gpt-4o" leaves combining marks out and splits Devanagari words apart).
for spec in "o200k_base granite-embed-multi-97m" "cl100k_base llama-bpe"; do
  set -- $spec
  name=$1 pre=$2
  encoder="$nm/tiktoken/encoders/$name.json"
  stamp="tiktoken $version $(sha256sum "$encoder" | cut -c1-16) $pre converter $tool_hash"
  if [ -f "$out/ggml-vocab-$name.gguf" ] && [ "$(cat "$out/$name.source" 2>/dev/null)" = "$stamp" ]; then
    continue
  fi
  "$tool" --encoder "$encoder" --pre "$pre" --template "$template" --out "$out/ggml-vocab-$name.gguf" >&2
  echo "$stamp" >"$out/$name.source"
done
