#!/usr/bin/env python3
"""Writes the Hugging Face tokenizer that transformers builds from a GGUF, for use as the oracle.

    python tests/oracle/gguf_hf_tokenizer.py MODEL.gguf OUT_DIR

Writes OUT_DIR/tokenizer.json: transformers' own GGUF conversion (convert_gguf_tokenizer in
transformers/integrations/gguf/gguf_tokenizer_mapping.py), the one `AutoTokenizer.from_pretrained(dir,
gguf_file=...)` uses, called directly so that torch is not needed: transformers 5.24.0's GGUF reader
(get_gguf_tokenizer) imports torch, so the same metadata is read here with the gguf package and renamed
by transformers' own GGUF_TOKENIZER_MAPPING.
For Gemma 3's SentencePiece vocabulary that is a character-level BPE with byte fallback whose merges
it derives from the vocabulary (gemma_tokenizer), a normalizer turning spaces into U+2581, the file's
control and user-defined tokens as added tokens, and (added here as the tokenizer class adds it when
the file sets add_bos_token) a post-processor that puts <bos> first. Prints
a one-line summary.
"""
import json
import os
import sys

from gguf import GGUFReader
from tokenizers import processors
from transformers.integrations.gguf.gguf_tokenizer_mapping import (GGUF_TOKENIZER_MAPPING, _SPECIAL_TOKENS,
                                                                   convert_gguf_tokenizer)


def get_gguf_tokenizer(path):
    """What transformers' get_gguf_tokenizer returns, from the gguf package's reader."""
    fields = GGUFReader(path).fields
    metadata = {name: field.contents() for name, field in fields.items()
                if name.startswith("tokenizer.") or name == "general.architecture"}
    grouped = {group: {new: metadata[f"tokenizer.{key}"] for key, new in renames.items() if f"tokenizer.{key}" in metadata}
               for group, renames in GGUF_TOKENIZER_MAPPING.items()}
    tokenizer, config = grouped["tokenizer"], grouped["tokenizer_config"]
    if tokenizer.get("tokenizer_type") == "llama":
        config.setdefault("add_bos_token", True)
    for name, key in _SPECIAL_TOKENS.items():
        token_id = metadata.get(f"tokenizer.ggml.{key}")
        config[name] = tokenizer["tokens"][token_id] if token_id is not None else None
    return metadata["general.architecture"], tokenizer, config


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[2].strip())
    path, out = sys.argv[1], sys.argv[2]
    arch, tokenizer_dict, config = get_gguf_tokenizer(path)
    backend, _ = convert_gguf_tokenizer(arch, tokenizer_dict)
    if config.get("add_bos_token") and config.get("bos_token"):
        # What the tokenizer class adds on top of the converted backend when add_bos_token is set
        # (AutoTokenizer with gguf_file=... shows this post-processor: <bos> $A, and <bos> $A <bos> $B).
        bos = config["bos_token"]
        backend.post_processor = processors.TemplateProcessing(single=f"{bos} $A", pair=f"{bos} $A {bos} $B",
                                                               special_tokens=[(bos, backend.token_to_id(bos))])
    os.makedirs(out, exist_ok=True)
    backend.save(os.path.join(out, "tokenizer.json"))
    model = json.loads(backend.to_str())["model"]
    print(f"gguf_hf_tokenizer: {arch} {model['type']}: {len(model['vocab'])} tokens, {len(model.get('merges', []))} merges, "
          f"add_bos_token {config.get('add_bos_token')} -> {out}/tokenizer.json")


if __name__ == "__main__":
    main()
