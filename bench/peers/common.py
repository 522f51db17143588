"""What every peer script shares: the record it appends (bench/peers/README.md) and the argument set."""
import argparse
import hashlib
import json
import resource
import statistics


def ids_sha(ids):
    """A short fingerprint of a generated id sequence, comparable between peers."""
    return hashlib.sha256(json.dumps([int(i) for i in ids]).encode()).hexdigest()[:16]


def peak_rss_bytes():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # Linux reports KiB


def batch_list(text):
    try:
        v = [int(x) for x in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"--batch takes N or N,M,... (got {text!r})")
    if not v or min(v) < 1:
        raise argparse.ArgumentTypeError(f"--batch values must be at least 1 (got {text!r})")
    return v


def base_args(description):
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--model", required=True, help="the HF model directory (or GGUF where the peer says)")
    ap.add_argument("--dtype", default="bf16", choices=["bf16", "f16", "f32"])
    ap.add_argument("--batch", type=batch_list, default=[1], help="sequences decoded together: N or a list N,M,... "
                    "(one record each; peers that load once measure them all in one process)")
    ap.add_argument("--prompt-ids", required=True, help="JSON list of the prompt's token ids (BOS included)")
    ap.add_argument("--new", type=int, default=128, help="tokens generated per sequence (EOS ignored)")
    ap.add_argument("--runs", type=int, default=3, help="measured runs after one warm-up")
    ap.add_argument("--context", type=int, default=512)
    ap.add_argument("--out", required=True, help="results file (JSON lines); one record is appended")
    ap.add_argument("--note", default="")
    return ap


def append_record(path, **rec):
    keys = ["peer", "device", "dtype", "batch", "prompt_tokens", "new_tokens", "decode_tok_s", "prefill_ms", "warmup_s",
            "cold_compile_s", "warm_load_s", "peak_device_bytes", "text_sha", "note"]
    missing = [k for k in keys if k not in rec]
    if missing:
        raise SystemExit(f"peers: record lacks {missing} (a bug in the peer script)")
    with open(path, "a") as f:
        f.write(json.dumps({k: rec[k] for k in keys}) + "\n")
    d, p = rec["decode_tok_s"], rec["prefill_ms"]
    med = lambda v: f"{statistics.median(v):.1f} ({min(v):.1f}..{max(v):.1f})" if v else "-"
    print(f"{rec['peer']} {rec['dtype']} B={rec['batch']}: decode {med(d)} tok/s, prefill {med(p)} ms, "
          f"text {rec['text_sha']}", flush=True)
