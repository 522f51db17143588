"""HF transformers as a peer: `generate` with a static KV cache (on CUDA, transformers compiles the decode
step for it) or the default dynamic cache on the CPU, on the same checkpoint as mlxcel.

  python3 hf_peer.py --model DIR|FILE.gguf --dtype bf16|f16|f32 --batch B --prompt-ids FILE [--new 128]
                     [--runs 3] [--context 512] [--device cuda|cpu] [--cache static|dynamic] [--threads T]
                     --out results.jsonl

A GGUF is loaded through transformers' GGUF reader (dequantized to --dtype), so HF and mlxcel read the
same weights. Exactly --new tokens per sequence (greedy; EOS neither stops nor is masked). A streamer
timestamps every step: prefill_ms is the time to the first generated token, decode tok/s is
B x (new - 1) over the rest of the call.
Appends one record (bench/peers/README.md)."""
import json
import os
import sys
import time

import torch
import transformers

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import append_record, base_args, ids_sha, peak_rss_bytes  # noqa: E402


def load(a, dtype):
    kw = {"torch_dtype": dtype}
    if a.model.endswith(".gguf"):
        kw["gguf_file"] = os.path.basename(a.model)
        path = os.path.dirname(os.path.abspath(a.model))
    else:
        path = a.model
    return transformers.AutoModelForCausalLM.from_pretrained(path, **kw).to(a.device).eval()


def main():
    ap = base_args(__doc__.splitlines()[0])
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    ap.add_argument("--cache", choices=["static", "dynamic"], help="default: static on cuda, dynamic on cpu")
    ap.add_argument("--threads", type=int, help="torch CPU threads")
    a = ap.parse_args()
    if a.threads:
        torch.set_num_threads(a.threads)
    cache = a.cache or ("static" if a.device == "cuda" else "dynamic")
    dtype = {"bf16": torch.bfloat16, "f16": torch.float16, "f32": torch.float32}[a.dtype]
    if a.dtype == "f32":
        torch.backends.cuda.matmul.allow_tf32 = False  # the f32 peer is exact f32, as ours
        torch.backends.cudnn.allow_tf32 = False
    sync = torch.cuda.synchronize if a.device == "cuda" else (lambda: None)
    t = time.perf_counter()
    model = load(a, dtype)
    sync()
    load_s = time.perf_counter() - t
    ids = json.load(open(a.prompt_ids))
    for batch in a.batch:
        measure(a, model, ids, batch, cache, sync, load_s)


def measure(a, model, ids, batch, cache, sync, load_s):
    cuda = a.device == "cuda"
    x = torch.tensor([ids] * batch, device=a.device)
    # EOS neither stops a sequence nor is suppressed (min_new_tokens would mask it and change the
    # greedy tokens): as `mlxcel --ignore-eos`, every sequence runs its --new tokens.
    model.generation_config.eos_token_id = None
    gen_kw = dict(attention_mask=torch.ones_like(x), do_sample=False, pad_token_id=0)
    if cache == "static":
        gen_kw["cache_implementation"] = "static"

    class Clock(transformers.generation.streamers.BaseStreamer):
        """generate() hands the streamer the prompt, then each step's tokens (moved to the host, which
        waits for the step); the second hand-over is the first generated token."""
        def __init__(self):
            self.times = []

        def put(self, value):
            self.times.append(time.perf_counter())

        def end(self):
            pass

    def call():
        clock = Clock()
        sync()
        t0 = time.perf_counter()
        with torch.inference_mode():
            out = model.generate(x, max_new_tokens=a.new, streamer=clock, **gen_kw)
        sync()
        t1 = time.perf_counter()
        return out, (clock.times[1] - t0) * 1e3, batch * (a.new - 1) / (t1 - clock.times[1])

    if cuda:
        torch.cuda.reset_peak_memory_stats()
    t = time.perf_counter()
    out, _, _ = call()  # warm-up: with a static cache on CUDA this includes transformers' compile
    warm_s = time.perf_counter() - t
    first = out[0, len(ids):].tolist()
    pre, dec, same = [], [], True
    for _ in range(a.runs):
        out, p, d = call()
        pre.append(p)
        dec.append(d)
        same = same and out[0, len(ids):].tolist() == first and bool((out == out[0]).all())
    peak = torch.cuda.max_memory_allocated() if cuda else peak_rss_bytes()
    note = f"transformers {transformers.__version__}, torch {torch.__version__}, {cache} cache" + ("" if same else "; RUNS DIFFER")
    append_record(a.out, peer="hf", device=a.device, dtype=a.dtype, batch=batch, prompt_tokens=len(ids), new_tokens=a.new,
                  decode_tok_s=dec, prefill_ms=pre, warmup_s=warm_s, cold_compile_s=None, warm_load_s=load_s,
                  peak_device_bytes=int(peak), text_sha=ids_sha(first), note=(note + "; " + a.note).strip("; "))

if __name__ == "__main__":
    main()
