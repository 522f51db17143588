#!/usr/bin/env python3
"""llama.cpp peer (issue 11, item 7): greedy decode of a GGUF on the CPU through llama-cpp-python.

    python llamacpp_peer.py --model GGUF --prompt-ids FILE --new N --runs 3 --threads T \
        --out results.jsonl [--note TEXT]

FILE holds the prompt as a JSON list of token ids (from `mlxcel tokenize`), fed to the model as they
are, so every peer starts from the same tokens whatever its own tokenizer would do. One warm-up, then
--runs measured generations of exactly N new tokens each: greedy (argmax of the raw logits) and EOS
not honoured, so every run does the same work. Appends one record in bench/peers/README.md's schema
to --out and prints a one-line summary. Runs in the venv bench/peers/setup-cpu-peers.sh makes.
"""

import argparse
import json
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import append_record, ids_sha, peak_rss_bytes  # noqa: E402

try:
    import llama_cpp
except ImportError:
    sys.exit("llamacpp_peer: llama_cpp is not importable: run bench/peers/setup-cpu-peers.sh and use "
             "its venv's python (~/.cache/mlxcel/bench-peers-venv/bin/python)")

N_CTX = 512


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--model", required=True, help="GGUF file")
    p.add_argument("--prompt-ids", required=True, help="JSON list of prompt token ids")
    p.add_argument("--new", type=int, required=True, help="new tokens per run (exactly)")
    p.add_argument("--runs", type=int, default=3, help="measured runs after the warm-up")
    p.add_argument("--threads", type=int, required=True, help="llama.cpp threads (decode and prefill)")
    p.add_argument("--out", required=True, help="results file (JSON lines), appended to")
    p.add_argument("--note", default="", help="extra text for the record's note")
    return p.parse_args()


def gguf_quant_name(llm):
    """The GGUF's quantisation as the README's dtype: 'q4_1', 'q8_0', 'f16', ...

    general.file_type is the number llama.cpp's quantiser writes; gguf's enum names it (MOSTLY_Q4_1).
    Without gguf or that key, the last word of llama.cpp's model description is the same name.
    """
    ftype = llm.metadata.get("general.file_type")
    if ftype is not None:
        try:
            import gguf
            name = gguf.LlamaFileType(int(ftype)).name
            return name.removeprefix("MOSTLY_").removeprefix("ALL_").lower()
        except (ImportError, ValueError):
            pass
    buf = (llama_cpp.ctypes.c_char * 256)()
    llama_cpp.llama_model_desc(llm.model, buf, len(buf))
    return buf.value.decode().split(" ", 2)[-1].lower().replace(" ", "")


def argmax_last(llm, n_vocab):
    # The logits of the batch's last token (the only one llama.cpp computed them for): greedy is
    # their argmax, done here rather than through a sampler chain so that nothing (penalties,
    # top-k, temperature, EOS handling) can differ from the other peers' plain argmax.
    ptr = llama_cpp.llama_get_logits_ith(llm.ctx, -1)
    return int(np.argmax(np.ctypeslib.as_array(ptr, shape=(n_vocab,))))


def clear_kv(llm):
    # Each run starts from an empty context: positions from 0, no cached prompt reused.
    llm.reset()
    mem = llama_cpp.llama_get_memory(llm.ctx)
    if mem is not None:
        llama_cpp.llama_memory_clear(mem, True)


def generate(llm, prompt_ids, n_new, n_vocab):
    """One greedy run of exactly n_new tokens. Returns (ids, prefill_s, decode_s)."""
    clear_kv(llm)
    t0 = time.perf_counter()
    llm.eval(prompt_ids)
    tok = argmax_last(llm, n_vocab)
    t1 = time.perf_counter()
    ids = [tok]
    # n_new - 1 more steps: each evaluates the previous token and takes the next one's argmax.
    for _ in range(n_new - 1):
        llm.eval([tok])
        tok = argmax_last(llm, n_vocab)
        ids.append(tok)
    t2 = time.perf_counter()
    return ids, t1 - t0, t2 - t1


def main():
    a = parse_args()
    if a.new < 2:
        sys.exit("llamacpp_peer: --new must be at least 2 (decode speed is over the tokens after the first)")
    if a.runs < 1:
        sys.exit("llamacpp_peer: --runs must be at least 1")
    with open(a.prompt_ids) as f:
        prompt_ids = json.load(f)
    if not (isinstance(prompt_ids, list) and prompt_ids and all(isinstance(t, int) for t in prompt_ids)):
        sys.exit(f"llamacpp_peer: {a.prompt_ids} is not a non-empty JSON list of ints")
    if len(prompt_ids) + a.new > N_CTX:
        sys.exit(f"llamacpp_peer: {len(prompt_ids)} prompt + {a.new} new tokens exceed n_ctx {N_CTX}")

    # Read the file once so that the load below is timed with the file in the page cache: the
    # README's warm_load_s is load with warm caches, not the disk.
    with open(a.model, "rb") as f:
        while f.read(1 << 24):
            pass

    t0 = time.perf_counter()
    # llama.cpp's defaults otherwise (mmap on, no mlock), CPU only; verbose off because its
    # per-load log is long, the system info line below says which SIMD paths it uses.
    llm = llama_cpp.Llama(model_path=a.model, n_ctx=N_CTX, n_threads=a.threads,
                          n_threads_batch=a.threads, n_gpu_layers=0, verbose=False)
    load_s = time.perf_counter() - t0
    n_vocab = llm.n_vocab()
    bad = [t for t in prompt_ids if not 0 <= t < n_vocab]
    if bad:
        sys.exit(f"llamacpp_peer: prompt ids out of the model's vocabulary ({n_vocab}): {bad[:5]}")
    print("llama.cpp system info:", llama_cpp.llama_print_system_info().decode().strip(), file=sys.stderr)

    t0 = time.perf_counter()
    warm_ids, _, _ = generate(llm, prompt_ids, a.new, n_vocab)
    warmup_s = time.perf_counter() - t0

    runs = [generate(llm, prompt_ids, a.new, n_vocab) for _ in range(a.runs)]
    first_ids = runs[0][0]
    same_ids = all(r[0] == warm_ids for r in runs)
    prefill_ms = [round(r[1] * 1e3, 3) for r in runs]
    decode_tok_s = [round((a.new - 1) / r[2], 3) for r in runs]

    note = f"llama-cpp-python {llama_cpp.__version__}, threads {a.threads}, n_ctx {N_CTX}, greedy argmax, EOS ignored"
    if a.note:
        note += "; " + a.note
    # ru_maxrss includes the touched pages of the mmapped weights file.
    append_record(a.out, peer="llama.cpp", device="cpu", dtype=gguf_quant_name(llm), batch=1,
                  prompt_tokens=len(prompt_ids), new_tokens=a.new, decode_tok_s=decode_tok_s, prefill_ms=prefill_ms,
                  warmup_s=round(warmup_s, 4), cold_compile_s=None,  # llama.cpp compiles nothing at run time
                  warm_load_s=round(load_s, 4), peak_device_bytes=peak_rss_bytes(), text_sha=ids_sha(first_ids),
                  note=note)
    print(f"same ids in every run (warm-up included): {'yes' if same_ids else 'NO'}")
    if not same_ids:
        for i, r in enumerate(runs):
            print(f"  run {i + 1}: text_sha {ids_sha(r[0])}, first difference from the warm-up at token "
                  f"{next((j for j, (x, y) in enumerate(zip(r[0], warm_ids)) if x != y), None)}")
    print("generated ids (first measured run):", json.dumps(first_ids))


if __name__ == "__main__":
    main()
