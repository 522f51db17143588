"""What the HF fixture generators share: the model in float32 on the CPU with deterministic algorithms,
a prompt's ids (plain, or through the chat template with a generation prompt), and the fixture's header
(command, versions, machine, date)."""
import os
import platform
import sys
import time

import torch
import transformers
from transformers import AutoModelForCausalLM, AutoTokenizer


def load(model_dir, gguf=None):
    torch.use_deterministic_algorithms(True)
    torch.set_num_threads(max(1, os.cpu_count() or 1))
    kw = {"gguf_file": gguf} if gguf else {}
    model = AutoModelForCausalLM.from_pretrained(model_dir, dtype=torch.float32, **kw).eval()
    return model, AutoTokenizer.from_pretrained(model_dir, **kw)


def prompt_ids(tok, text, chat):
    if not chat:
        return list(tok(text).input_ids)
    ids = tok.apply_chat_template([{"role": "user", "content": text}], tokenize=True, add_generation_prompt=True,
                                  return_dict=False)
    if isinstance(ids, dict) or hasattr(ids, "input_ids"):
        ids = ids["input_ids"]
    return list(ids)


def header(what, model_name):
    return {
        "what": what,
        "command": " ".join(sys.argv),
        "model": model_name,
        "transformers": transformers.__version__,
        "torch": torch.__version__,
        "python": platform.python_version(),
        "machine": platform.node() + " " + platform.machine() + ", torch threads " + str(torch.get_num_threads()),
        "date": time.strftime("%Y-%m-%d"),
    }
