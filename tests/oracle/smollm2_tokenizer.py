#!/usr/bin/env python3
"""Rebuilds SmolLM2-135M-Instruct's Hugging Face tokenizer from its GGUF, for use as the oracle.

    python tests/oracle/smollm2_tokenizer.py GGUF OUT_DIR [--compare-transformers]

Writes OUT_DIR/tokenizer.json and OUT_DIR/tokenizer_config.json. The machines we test on cannot
reach the Hugging Face hub, so the upstream files (HuggingFaceTB/SmolLM2-135M-Instruct) are not
available; the GGUF is, and it carries everything the tokenizer needs except the shape of its
pipeline, which is fixed below.

Facts this file encodes, and where each comes from:

* Model: byte-level BPE. `tokenizer.ggml.model` is "gpt2". The vocabulary is
  `tokenizer.ggml.tokens` with id = position (49152 entries, already spelled in GPT-2's
  byte-to-unicode alphabet, e.g. "Ġt"); the merges are `tokenizer.ggml.merges` in file order
  (rank = position), each "left right" separated by one space. No unk token, no dropout, no
  byte fallback, no subword prefix/suffix, and `ignore_merges` false (a word that happens to be
  in the vocabulary is still built by merges, as upstream's tokenizer.json says).
* Normalizer: none.
* Pre-tokenizer: Sequence[Digits(individual_digits=true),
  ByteLevel(add_prefix_space=false, trim_offsets=true, use_regex=true)], i.e. every digit becomes
  its own piece, then GPT-2's split regex, then the byte-to-unicode mapping. The GGUF says this
  through `tokenizer.ggml.pre` = "smollm": llama.cpp maps that name to two regexes applied in
  turn, "\\p{N}" (each number character alone) followed by GPT-2's pattern. It is also what the
  upstream tokenizer.json holds. No prefix space: `tokenizer.ggml.add_space_prefix` is false.
* Post-processor: ByteLevel(trim_offsets=false). It adds no tokens; `tokenizer.ggml.add_bos_token`
  is false, so an encode with add_special_tokens=True gives the same ids as without.
* Decoder: ByteLevel (bytes back from the byte-to-unicode alphabet).
* Added tokens: the 17 tokens whose `tokenizer.ggml.token_type` is 3 (CONTROL), ids 0..16:
  <|endoftext|>, <|im_start|>, <|im_end|>, <repo_name>, <reponame>, <file_sep>, <filename>,
  <gh_stars>, <issue_start>, <issue_comment>, <issue_closed>, <jupyter_start>, <jupyter_text>,
  <jupyter_code>, <jupyter_output>, <jupyter_script>, <empty_output>; each special=true,
  normalized=false, lstrip/rstrip/single_word false. Being added tokens, they are matched whole
  in input text before pre-tokenization, whatever surrounds them. All other tokens are type 1.
* tokenizer_config.json: add_bos_token false (from the GGUF); bos/eos/unk/pad are the tokens at
  the GGUF's bos (1, <|im_start|>), eos (2, <|im_end|>), unknown (0, <|endoftext|>) and padding
  (2, <|im_end|>) ids; chat_template is the GGUF's `tokenizer.chat_template` verbatim;
  model_max_length is `llama.context_length`. tokenizer_class is "PreTrainedTokenizerFast", not
  upstream's "GPT2Tokenizer": in transformers 5.24.0 AutoTokenizer with GPT2Tokenizer rebuilds the
  pre-tokenizer from the class (a lone ByteLevel) and so drops the Digits step of tokenizer.json
  ("a  1" then gives [81, 216, 216, 33] instead of [81, 256, 33]); PreTrainedTokenizerFast keeps
  tokenizer.json as written.

Why not let transformers convert the GGUF itself? Because for this file it drops the Digits step.
Checked in the test environment's transformers 5.24.0,
transformers/integrations/gguf/gguf_tokenizer_mapping.py: a "gpt2"-model GGUF is built by
`byte_level_tokenizer`, i.e. `GPT2Tokenizer(vocab=..., merges=...)`, whose pre-tokenizer is a lone
`ByteLevel(add_prefix_space=False)` with GPT-2's regex and no Digits step; `set_split_regex`
replaces that only for the `tokenizer.ggml.pre` names in `GGUF_PRE_TOKENIZER_SPLITS` (llama3,
qwen2, tekken, gpt-4o, ...), and "smollm" is not among them. Its pre-tokenizer for this file is
therefore {"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": true, "use_regex": true},
no Digits step. The claim holds, but its effect is narrower than one might expect: SmolLM2 was
trained with digits split, so none of its 48900 merges involves a digit and "12345" still comes
out as five digit tokens either way. What changes is the whitespace in front of numbers: with the
Digits step, "a  1" is ["a", "ĠĠ", "1"] (the spaces are cut off the digit first, then merge); with
GPT-2's regex alone it is ["a", "Ġ", "Ġ", "1"] (" 1" is one piece and the space cannot merge with
the digit). Likewise "Total:   100%". On the 1.2 MB parity corpus 224 of 5060 records encode
differently (mostly the digits and whitespace kinds). (Loading the GGUF through AutoTokenizer
also needs torch in 5.24.0, which the test environment does not install.)
`--compare-transformers` runs that converter on the same GGUF (without torch, by calling
`convert_gguf_tokenizer` directly) and prints how its pre-tokenizer and its ids differ from ours.
"""

import argparse
import json
import os
import sys

from gguf import GGUFReader
from tokenizers import AddedToken, Tokenizer, decoders, models, pre_tokenizers, processors

CONTROL = 3  # llama.cpp's LLAMA_TOKEN_TYPE_CONTROL


def read_fields(path):
    """The GGUF's tokenizer.* and *.context_length metadata as Python values."""
    reader = GGUFReader(path)
    out = {}
    for name, field in reader.fields.items():
        if name.startswith("tokenizer.") or name.startswith("general.") or name.endswith(".context_length"):
            out[name] = field.contents()
    return out


def build(meta):
    if meta.get("tokenizer.ggml.model") != "gpt2":
        sys.exit(f"smollm2_tokenizer: expected a byte-level BPE GGUF (tokenizer.ggml.model = gpt2), "
                 f"got {meta.get('tokenizer.ggml.model')!r}")
    if meta.get("tokenizer.ggml.pre") != "smollm":
        sys.exit(f"smollm2_tokenizer: this builder encodes the 'smollm' pre-tokenizer; the GGUF says "
                 f"{meta.get('tokenizer.ggml.pre')!r}")
    tokens = list(meta["tokenizer.ggml.tokens"])
    types = list(meta["tokenizer.ggml.token_type"])
    vocab = {tok: i for i, tok in enumerate(tokens)}
    if len(vocab) != len(tokens):
        sys.exit("smollm2_tokenizer: the GGUF's vocabulary has duplicate tokens")
    merges = []
    for m in meta["tokenizer.ggml.merges"]:
        parts = m.split(" ")
        if len(parts) != 2:
            sys.exit(f"smollm2_tokenizer: merge {m!r} is not two tokens separated by one space")
        merges.append((parts[0], parts[1]))

    # Left out, so at their defaults (none): dropout, unk_token, continuing_subword_prefix,
    # end_of_word_suffix.
    bpe = models.BPE(vocab=vocab, merges=merges, fuse_unk=False, byte_fallback=False, ignore_merges=False)
    tok = Tokenizer(bpe)
    tok.normalizer = None
    tok.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Digits(individual_digits=True),
        pre_tokenizers.ByteLevel(add_prefix_space=False, trim_offsets=True, use_regex=True),
    ])
    tok.post_processor = processors.ByteLevel(trim_offsets=False)
    tok.decoder = decoders.ByteLevel()
    control = [AddedToken(t, special=True, normalized=False, lstrip=False, rstrip=False, single_word=False)
               for t, ty in zip(tokens, types) if ty == CONTROL]
    tok.add_special_tokens(control)
    for a in control:  # they are in the vocabulary already, so they must keep their ids
        assert tok.token_to_id(a.content) == vocab[a.content], a.content
    assert tok.get_vocab_size(with_added_tokens=True) == len(tokens)

    def token_at(key):
        i = meta.get(f"tokenizer.ggml.{key}")
        return None if i is None else tokens[int(i)]

    ctx = next((int(v) for k, v in meta.items() if k.endswith(".context_length")), None)
    config = {
        "tokenizer_class": "PreTrainedTokenizerFast",
        "add_bos_token": bool(meta.get("tokenizer.ggml.add_bos_token", False)),
        "add_eos_token": bool(meta.get("tokenizer.ggml.add_eos_token", False)),
        "add_prefix_space": bool(meta.get("tokenizer.ggml.add_space_prefix", False)),
        "bos_token": token_at("bos_token_id"),
        "eos_token": token_at("eos_token_id"),
        "unk_token": token_at("unknown_token_id"),
        "pad_token": token_at("padding_token_id"),
        "clean_up_tokenization_spaces": False,
        "chat_template": meta.get("tokenizer.chat_template"),
    }
    if ctx:
        config["model_max_length"] = ctx
    return tok, config, control


def compare_transformers(meta, ours, texts):
    """Runs transformers' own GGUF tokenizer conversion on the same metadata and reports."""
    from transformers.integrations.gguf.gguf_tokenizer_mapping import GGUF_TOKENIZER_MAPPING, convert_gguf_tokenizer
    import transformers
    tdict = {name: meta[f"tokenizer.{key}"] for key, name in GGUF_TOKENIZER_MAPPING["tokenizer"].items()
             if f"tokenizer.{key}" in meta}
    theirs, _ = convert_gguf_tokenizer(meta["general.architecture"], tdict)
    pre = json.loads(theirs.to_str())["pre_tokenizer"]
    print(f"transformers {transformers.__version__} GGUF conversion, pre_tokenizer: {json.dumps(pre)}")
    for t in texts:
        a = ours.encode(t).ids
        b = theirs.encode(t).ids
        print(f"  {t!r}: ours {a}  transformers {b}  {'same' if a == b else 'DIFFERENT'}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("gguf", help="SmolLM2-135M-Instruct GGUF (scripts/fetch-model.sh prints its path)")
    ap.add_argument("out_dir", help="directory for tokenizer.json and tokenizer_config.json")
    ap.add_argument("--compare-transformers", action="store_true",
                    help="also show how transformers' own GGUF conversion tokenizes a few strings")
    args = ap.parse_args()

    meta = read_fields(args.gguf)
    tok, config, control = build(meta)
    os.makedirs(args.out_dir, exist_ok=True)
    tok.save(os.path.join(args.out_dir, "tokenizer.json"), pretty=True)
    with open(os.path.join(args.out_dir, "tokenizer_config.json"), "w", encoding="utf-8") as f:
        json.dump(config, f, indent=2, ensure_ascii=False)
        f.write("\n")
    print(f"smollm2_tokenizer: wrote {args.out_dir}/tokenizer.json ({tok.get_vocab_size()} tokens, "
          f"{len(meta['tokenizer.ggml.merges'])} merges, {len(control)} special) and tokenizer_config.json "
          f"(bos {config['bos_token']}, eos {config['eos_token']}, add_bos_token {config['add_bos_token']})",
          file=sys.stderr)
    if args.compare_transformers:
        compare_transformers(meta, Tokenizer.from_file(os.path.join(args.out_dir, "tokenizer.json")),
                             ["Hello world 12345", "a  1", "Total:   100%", "x\t\t42", "<|im_start|>user\nHi 42<|im_end|>"])


if __name__ == "__main__":
    main()
