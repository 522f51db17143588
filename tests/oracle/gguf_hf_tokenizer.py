#!/usr/bin/env python3
"""Writes the Hugging Face tokenizer that transformers builds from a GGUF, for use as the oracle.

    python tests/oracle/gguf_hf_tokenizer.py MODEL.gguf OUT_DIR [--as ARCH]

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

--as ARCH converts the file's vocabulary as transformers converts one of architecture ARCH: `llama`
gives the Llama-style tokenizer.json (LlamaTokenizer: a Metaspace pre-tokenizer with prepend_scheme
"first", merges ranked by the tokens' scores, a decoder that strips the prefix space), `phi3` the
Llama 2 / Phi-3 style (normalizers Prepend and Replace, no pre-tokenizer). Those are the other
SentencePiece spellings of tokenizer.json that the HF loader reads; with no Llama 2 or Phi-3 vocabulary
at hand, Gemma's serves as theirs. It also writes OUT_DIR/tokenizer.gguf, a GGUF holding only that
tokenizer's metadata under architecture ARCH, so the GGUF loader can be checked against the same oracle.

--as qwen2 (a byte-level BPE file) instead writes the tokenizer.json that transformers' Qwen2Tokenizer builds
from the file's vocabulary and merges: the shape of Qwen2/2.5/3's own files (an NFC normalizer, Qwen2's split,
"" as continuing_subword_prefix and end_of_word_suffix, no BOS), with the file's special tokens as added
tokens, and a tokenizer_config.json naming its end-of-text token. With no Qwen vocabulary at hand, the
file's serves as Qwen's.
"""
import json
import os
import sys

from gguf import GGUFReader, GGUFWriter
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


def write_tokenizer_gguf(path, arch, tok, config):
    """The tokenizer's metadata alone, as a GGUF of architecture arch (no tensors)."""
    w = GGUFWriter(path, arch)
    w.add_tokenizer_model(tok["tokenizer_type"])
    w.add_token_list(tok["tokens"])
    w.add_token_scores([float(x) for x in tok["scores"]])
    w.add_token_types([int(x) for x in tok["token_type"]])
    for name, add in (("bos_token_id", w.add_bos_token_id), ("eos_token_id", w.add_eos_token_id)):
        if tok.get(name) is not None:
            add(int(tok[name]))
    if config.get("add_bos_token") is not None:
        w.add_add_bos_token(bool(config["add_bos_token"]))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


def write_qwen2_style(out, backend, config):
    """tokenizer.json as Qwen2Tokenizer builds it from backend's vocabulary and merges (see the top)."""
    from transformers import Qwen2Tokenizer
    conv = json.loads(backend.to_str())
    eos = config.get("eos_token")
    merges = [tuple(m.split(" ")) if isinstance(m, str) else tuple(m) for m in conv["model"]["merges"]]
    qwen = json.loads(Qwen2Tokenizer(vocab=conv["model"]["vocab"], merges=merges, unk_token=None, eos_token=eos,
                                     pad_token=eos).backend_tokenizer.to_str())
    qwen["added_tokens"] = conv["added_tokens"]
    with open(os.path.join(out, "tokenizer.json"), "w", encoding="utf-8") as f:
        json.dump(qwen, f, ensure_ascii=False)
    with open(os.path.join(out, "tokenizer_config.json"), "w", encoding="utf-8") as f:
        json.dump({"tokenizer_class": "Qwen2Tokenizer", "add_bos_token": False, "bos_token": None, "eos_token": eos}, f)
    print(f"gguf_hf_tokenizer: Qwen2Tokenizer's build: normalizer {qwen['normalizer']}, {len(qwen['model']['vocab'])} tokens, "
          f"{len(qwen['model']['merges'])} merges, {len(qwen['added_tokens'])} added -> {out}/tokenizer.json")


def main():
    if len(sys.argv) not in (3, 5) or (len(sys.argv) == 5 and sys.argv[3] != "--as"):
        sys.exit(__doc__.strip().splitlines()[2].strip())
    path, out = sys.argv[1], sys.argv[2]
    arch, tokenizer_dict, config = get_gguf_tokenizer(path)
    if len(sys.argv) == 5 and sys.argv[4] == "qwen2":
        backend, _ = convert_gguf_tokenizer(arch, tokenizer_dict)
        os.makedirs(out, exist_ok=True)
        return write_qwen2_style(out, backend, config)
    if len(sys.argv) == 5:
        arch = sys.argv[4]
        os.makedirs(out, exist_ok=True)
        write_tokenizer_gguf(os.path.join(out, "tokenizer.gguf"), arch, tokenizer_dict, config)
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
