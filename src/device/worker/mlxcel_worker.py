"""mlxcel device worker: hosts the IREE runtime from the pinned wheel for one C client.

The C engine owns all model logic; this process only opens one device, loads VMFBs (with optional
parameter files), calls functions and keeps device buffers alive between calls. It speaks the frame
protocol of src/device/protocol.h on the socket passed as --fd:

    header  : magic b"MXW1", u32 json_len, u64 bin_len (little endian)
    payload : json_len bytes of UTF-8 JSON, then bin_len bytes of tensor data

Every request gets exactly one response: {"ok": true, ...} or {"ok": false, "stage", "message",
"remedy"}. A failure here never ends the process; only EOF on the socket or "shutdown" does.
"""

import argparse
import ctypes
import json
import os
import platform
import re
import signal
import socket
import struct
import sys
import time

HEADER = struct.Struct("<4sIQ")
MAGIC = b"MXW1"
MAX_JSON = 16 << 20

# Imported lazily by main() so that a broken install is reported as a stage, not a traceback.
rt = None
np = None
DTYPES = {}


class Failure(Exception):
    def __init__(self, stage, message, remedy=""):
        super().__init__(message)
        self.stage, self.message, self.remedy = stage, message, remedy


def clean(err):
    """First line of an IREE error, without the C source locations it is prefixed with."""
    text = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
    text = re.sub(r"(c/)?runtime/src/[\w/.]+\.c:\d+: ", "", text).rstrip(" :")
    # Some runtime errors quote a whole target description; keep a status readable on one line.
    return text if len(text) <= 400 else text[:400] + " ..."


# ---------------------------------------------------------------------------------------- framing

def recv_exact(sock, n):
    buf = bytearray(n)
    view = memoryview(buf)
    got = 0
    while got < n:
        k = sock.recv_into(view[got:], n - got)
        if k == 0:
            return None
        got += k
    return buf


def recv_frame(sock):
    head = recv_exact(sock, HEADER.size)
    if head is None:
        return None, None
    magic, jlen, blen = HEADER.unpack(head)
    if magic != MAGIC or jlen > MAX_JSON:
        raise ConnectionError("bad frame header from client")
    body = recv_exact(sock, jlen + blen)
    if body is None:
        return None, None
    return json.loads(bytes(body[:jlen])), memoryview(body)[jlen:]


def send_frame(sock, obj, blobs=()):
    data = json.dumps(obj).encode()
    blen = sum(len(b) for b in blobs)
    sock.sendall(HEADER.pack(MAGIC, len(data), blen) + data)
    for b in blobs:
        sock.sendall(b)


# ------------------------------------------------------------------------------ device discovery

def cuda_arch(index):
    """sm_XY of a CUDA device via the driver API (the HAL does not report compute capability)."""
    try:
        cu = ctypes.CDLL("libcuda.so.1")
        if cu.cuInit(0) != 0:
            return ""
        dev, major, minor = ctypes.c_int(), ctypes.c_int(), ctypes.c_int()
        if cu.cuDeviceGet(ctypes.byref(dev), index) != 0:
            return ""
        cu.cuDeviceGetAttribute(ctypes.byref(major), 75, dev)  # COMPUTE_CAPABILITY_MAJOR
        cu.cuDeviceGetAttribute(ctypes.byref(minor), 76, dev)  # COMPUTE_CAPABILITY_MINOR
        return "sm_%d%d" % (major.value, minor.value)
    except OSError:
        return ""


def hip_arch(index):
    """gfx name of a HIP device. hipDeviceProp_t changes layout between ROCm releases, so rather
    than hard-code an offset we fetch the struct into a generous buffer and read the gcnArchName
    string out of it (it is the only field that starts with "gfx")."""
    try:
        hip = ctypes.CDLL("libamdhip64.so")
    except OSError:
        return ""
    buf = ctypes.create_string_buffer(16384)
    for name in ("hipGetDevicePropertiesR0600", "hipGetDeviceProperties"):
        fn = getattr(hip, name, None)
        if fn is not None and fn(buf, index) == 0:
            m = re.search(rb"gfx[0-9a-f]+(:[a-z+\-:]+)?", buf.raw)
            return m.group(0).decode().split(":")[0] if m else ""
    return ""


def device_arch(driver, index):
    if driver.startswith("local"):
        return platform.machine()
    if driver == "cuda":
        return cuda_arch(index)
    if driver == "hip":
        return hip_arch(index)
    return ""


def hip_access_problem():
    """Why a process cannot reach an AMD GPU through the kernel, or None. The paths can be
    redirected for tests (MLXCEL_KFD_PROBE, MLXCEL_DRI_PROBE)."""
    kfd = os.environ.get("MLXCEL_KFD_PROBE", "/dev/kfd")
    dri = os.environ.get("MLXCEL_DRI_PROBE", "/dev/dri")
    container = "in a container pass --device=/dev/kfd --device=/dev/dri (and --group-add video --group-add render)"
    groups = "add the user to the render and video groups (usermod -aG render,video $USER, then log in again)"
    if not os.path.exists(kfd):
        return ("%s is missing: the amdgpu kernel driver is not loaded or the device is not passed through" % kfd,
                "load amdgpu (a ROCm-supported kernel); " + container)
    if not os.access(kfd, os.R_OK | os.W_OK):
        return ("%s is not readable and writable by this user" % kfd, groups + "; " + container)
    renders = sorted(f for f in (os.listdir(dri) if os.path.isdir(dri) else []) if f.startswith("renderD"))
    if not renders:
        return ("%s has no renderD* nodes" % dri, container)
    if not any(os.access(os.path.join(dri, r), os.R_OK | os.W_OK) for r in renders):
        return ("no %s/renderD* node is readable and writable by this user" % dri, groups + "; " + container)
    return None


def hip_driver_failure(err):
    """The stage message and remedy for a HIP driver that cannot be created."""
    text = clean(err)
    missing = re.search(r"symbol '(\w+)' not found", text)
    if missing:
        return ("the HIP runtime (libamdhip64.so) is too old for IREE's HIP driver: it lacks %s" % missing.group(1),
                "install ROCm 6 or newer (Debian 12's libamdhip64-5 is 5.2) and point IREE at it: "
                "IREE_HIP_DYLIB_PATH=/opt/rocm/lib (or put that directory on LD_LIBRARY_PATH)")
    if "not available" in text or "failed to load dynamic library" in text:
        return ("no HIP runtime on this host: libamdhip64.so does not load",
                "install ROCm (the HIP runtime) and point IREE at it: IREE_HIP_DYLIB_PATH=/opt/rocm/lib (or put "
                "that directory on LD_LIBRARY_PATH); check with `rocminfo`")
    access = hip_access_problem()
    if access:
        return access
    return ("cannot create the 'hip' driver: %s" % text, "check the ROCm installation with `rocminfo`")


def hip_no_device():
    """Message and remedy when the HIP runtime loads but reports no GPU."""
    access = hip_access_problem()
    if access:
        return access
    hvd = os.environ.get("HIP_VISIBLE_DEVICES")
    return ("the HIP runtime loads but reports no GPU%s" % (" (HIP_VISIBLE_DEVICES=%s)" % hvd if hvd is not None else ""),
            "check `rocminfo` and `amd-smi list`; unset or fix HIP_VISIBLE_DEVICES / ROCR_VISIBLE_DEVICES")


DRIVER_REMEDY = {
    "cuda": "install the NVIDIA driver so libcuda.so.1 loads (check `nvidia-smi`)",
    "hip": "install the ROCm HIP runtime so libamdhip64.so loads (e.g. apt-get install libamdhip64-5, "
           "or a ROCm release) and check `rocminfo`",
    "vulkan": "install a Vulkan loader (libvulkan1) and an ICD for your GPU",
}


def get_driver(name):
    have = rt.query_available_drivers()
    if name not in have:
        remedy = "use one of: " + ", ".join(have)
        if name == "metal":
            remedy = "the metal driver exists only in macOS builds of the IREE runtime; on this host " + remedy
        raise Failure("driver", "the IREE runtime has no '%s' driver" % name, remedy)
    try:
        return rt.get_driver(name)
    except Exception as e:  # noqa: BLE001 - the runtime raises plain ValueError/RuntimeError
        if name == "hip":
            raise Failure("driver", *hip_driver_failure(e))
        raise Failure("driver", "cannot create the '%s' driver: %s" % (name, clean(e)),
                      DRIVER_REMEDY.get(name, "see `mlxcel devices`"))


def op_list(state, req, blob):
    drivers = []
    for name in rt.query_available_drivers():
        entry = {"name": name, "available": False, "devices": []}
        try:
            drv = get_driver(name)
            try:
                found = drv.query_available_devices()
            except Exception as e:  # noqa: BLE001 - HIP with no GPU fails the query itself
                if name != "hip":
                    raise Failure("device", "cannot list the '%s' devices: %s" % (name, clean(e)), "")
                found = []
            if not found and name == "hip":
                entry["error"], entry["remedy"] = hip_no_device()
            for i, info in enumerate(found):
                entry["devices"].append({
                    "uri": "%s://%d" % (name, i),
                    "name": str(info.get("name", "")),
                    "path": str(info.get("path", "")),
                    "arch": device_arch(name, i),
                })
            entry["available"] = True
        except Failure as f:
            entry["error"] = f.message
            entry["remedy"] = f.remedy
        drivers.append(entry)
    return {"drivers": drivers}, []


def op_open(state, req, blob):
    uri = str(req.get("uri", ""))
    if state["device"] is not None:
        raise Failure("device", "this worker already has device %s open" % state["uri"],
                      "start one worker per device")
    m = re.fullmatch(r"([a-z][a-z0-9-]*)(?:://(\d*))?", uri)
    if not m:
        raise Failure("device", "malformed device URI '%s'" % uri,
                      "use DRIVER or DRIVER://INDEX, e.g. local-task, cuda://0, hip://1")
    name, index = m.group(1), int(m.group(2)) if m.group(2) else 0
    drv = get_driver(name)
    try:
        devices = drv.query_available_devices()
    except Exception as e:  # noqa: BLE001
        if name == "hip":
            raise Failure("device", *hip_no_device())
        raise Failure("device", "cannot list the '%s' devices: %s" % (name, clean(e)), "run `mlxcel devices`")
    if not devices and name == "hip":
        raise Failure("device", *hip_no_device())
    if index >= len(devices):
        raise Failure("device", "driver '%s' has %d device(s); there is no index %d" % (name, len(devices), index),
                      "run `mlxcel devices` to see the devices; HIP_VISIBLE_DEVICES / CUDA_VISIBLE_DEVICES "
                      "renumber them")
    try:
        dev = drv.create_device(devices[index]["device_id"])
    except Exception as e:  # noqa: BLE001
        access = hip_access_problem() if name == "hip" else None
        if access:
            raise Failure("device", *access)
        raise Failure("device", "cannot open %s: %s" % (uri, clean(e)), "run `mlxcel devices`")
    state.update(device=dev, uri="%s://%d" % (name, index), instance=rt.VmInstance())
    state["hal"] = rt.create_hal_module(state["instance"], dev)
    return {"uri": state["uri"], "driver": name, "arch": device_arch(name, index),
            "name": str(devices[index].get("name", ""))}, []


def need_device(state):
    if state["device"] is None:
        raise Failure("device", "no device is open", "open a device before loading or calling")
    return state["device"]


def op_load(state, req, blob):
    need_device(state)
    path = str(req.get("path", ""))
    modules = [state["hal"]]
    params = req.get("params") or []
    if params:
        idx = rt.ParameterIndex()
        scope = "model"
        for p in params:
            scope = str(p.get("scope", "model"))
            try:
                idx.load(str(p["path"]))
            except Exception as e:  # noqa: BLE001
                raise Failure("module_load", "parameter file %s: %s" % (p.get("path"), clean(e)),
                              "pass a readable .irpa, .safetensors or .gguf file")
        modules.append(rt.create_io_parameters_module(state["instance"], idx.create_provider(scope=scope)))
    if not os.path.isfile(path):
        raise Failure("module_load", "VMFB %s does not exist" % path, "compile it first")
    try:
        mod = rt.VmModule.mmap(state["instance"], path)
        ctx = rt.VmContext(state["instance"], modules=modules + [mod])
    except Exception as e:  # noqa: BLE001
        raise Failure("module_load", "cannot load %s: %s" % (path, clean(e)),
                      "recompile the VMFB with the pinned iree-compile for this device")
    state["next_module"] += 1
    mid = state["next_module"]
    state["modules"][mid] = (mod, ctx, {})
    return {"module": mid, "functions": [f for f in mod.function_names if not f.startswith("__")]}, []


def op_call(state, req, blob):
    dev = need_device(state)
    entry = state["modules"].get(req.get("module"))
    if entry is None:
        raise Failure("call", "unknown module id %r" % req.get("module"), "load the VMFB first")
    mod, ctx, invokers = entry
    fname = str(req.get("function", ""))
    inv = invokers.get(fname)
    if inv is None:
        fn = mod.lookup_function(fname)
        if fn is None:
            raise Failure("call", "the module has no function '%s'" % fname,
                          "functions: " + ", ".join(f for f in mod.function_names if not f.startswith("__")))
        inv = invokers[fname] = (rt.FunctionInvoker(ctx, dev, fn),
                                 fn.reflection.get("iree.abi.declaration", fname))
    invoker, decl = inv
    args = []
    for i, spec in enumerate(req.get("inputs", [])):
        if "handle" in spec:
            h = state["handles"].get(spec["handle"])
            if h is None:
                raise Failure("transfer", "input %d: unknown handle %r" % (i, spec["handle"]),
                              "handles are valid until freed")
            args.append(h)
            continue
        try:
            dt = DTYPES[spec["dtype"]]
            shape = tuple(int(d) for d in spec["shape"])
            off, n = int(spec["offset"]), int(spec["nbytes"])
        except (KeyError, TypeError, ValueError):
            raise Failure("protocol", "input %d: malformed tensor descriptor" % i, "client bug")
        count = 1
        for d in shape:
            count *= d
        if off < 0 or off + n > len(blob) or n != count * dt.itemsize:
            raise Failure("protocol", "input %d: %d bytes at %d do not hold %s %s" % (i, n, off, spec["dtype"], shape),
                          "client bug")
        args.append(np.frombuffer(blob[off:off + n], dtype=dt).reshape(shape))
    try:
        res = invoker(*args)
    except Exception as e:  # noqa: BLE001
        raise Failure("call", "%s: %s" % (fname, clean(e)), "pass inputs matching: " + decl)
    res = list(res) if isinstance(res, (tuple, list)) else ([] if res is None else [res])
    keep = req.get("keep", [])
    outs, blobs, off = [], [], 0
    for i, r in enumerate(res):
        name = next((k for k, v in DTYPES.items() if v == r.dtype), str(r.dtype))
        if i < len(keep) and keep[i]:
            state["next_handle"] += 1
            state["handles"][state["next_handle"]] = r
            outs.append({"handle": state["next_handle"], "dtype": name, "shape": list(r.shape)})
            continue
        try:
            host = np.ascontiguousarray(r.to_host())
        except Exception as e:  # noqa: BLE001
            raise Failure("transfer", "output %d of %s: %s" % (i, fname, clean(e)), "check device health")
        data = host.tobytes()
        outs.append({"dtype": name, "shape": list(host.shape), "offset": off, "nbytes": len(data)})
        blobs.append(data)
        off += len(data)
    return {"outputs": outs}, blobs


def op_free(state, req, blob):
    missing = [h for h in req.get("handles", []) if state["handles"].pop(h, None) is None]
    if missing:
        raise Failure("transfer", "unknown handle(s) %s" % missing, "free each handle once")
    return {}, []


def op_stats(state, req, blob):
    dev = need_device(state)
    stats = dict(dev.allocator.statistics) if dev.allocator.has_statistics else {}
    stats["live_handles"] = len(state["handles"])
    return {"stats": stats}, []


def op_ping(state, req, blob):
    return {"pid": os.getpid(), "runtime": state["runtime_version"]}, []


def op_sleep(state, req, blob):
    # Test hook: a call that takes as long as asked, so tests can kill or stop the worker mid-call.
    time.sleep(float(req.get("ms", 0)) / 1000.0)
    return {}, []


# Test hook (tests/server/faults_test.py): with MLXCEL_XLA_WORKER_FAULT_FILE set, the worker looks for
# that file before each operation. It holds "KIND [TARGET]": TARGET is an operation ("ping") or the
# start of a function name ("decode"); without it any call matches. The first worker whose operation
# matches claims the file (an atomic rename, so of several workers exactly one fires) and fires once:
#   exit       the process dies (a driver fault, an OOM kill)
#   hang       the process stops answering (a hung device)
#   call_error the call fails with an error, the worker stays up (a request's own failure)
#   bad_token  the call's i32 outputs come back outside any vocabulary (an argmax over NaN logits)
FAULT_FILE = os.environ.get("MLXCEL_XLA_WORKER_FAULT_FILE", "")


def claim_fault(op, req):
    try:
        with open(FAULT_FILE) as f:
            words = f.read().split()
    except OSError:
        return None
    if not words:
        return None
    target = words[1] if len(words) > 1 else "call"
    name = str(req.get("function", "")) if op == "call" else ""
    if target != op and not (op == "call" and name.startswith(target)):
        return None
    try:
        os.rename(FAULT_FILE, "%s.fired.%d" % (FAULT_FILE, os.getpid()))
    except OSError:
        return None  # another worker claimed it
    return words[0]


def run_op(handler, state, req, blob, op):
    fault = claim_fault(op, req) if FAULT_FILE else None
    if fault == "exit":
        os._exit(3)
    if fault == "hang":
        while True:
            time.sleep(3600)
    if fault == "call_error":
        raise Failure("call", "injected fault (MLXCEL_XLA_WORKER_FAULT_FILE)", "this is a test hook")
    resp, blobs = handler(state, req, blob)
    if fault == "bad_token":
        blobs = [np.full(len(b) // 4, 1 << 30, dtype=np.int32).tobytes()
                 if o.get("dtype") == "i32" else b for o, b in zip(resp.get("outputs", []), blobs)]
    return resp, blobs


OPS = {"ping": op_ping, "list": op_list, "open": op_open, "load": op_load, "call": op_call,
       "free": op_free, "stats": op_stats, "sleep": op_sleep}


def main():
    global rt, np
    ap = argparse.ArgumentParser()
    ap.add_argument("--fd", type=int, required=True)
    fd = ap.parse_args().fd
    sock = socket.socket(fileno=fd)
    # Die with the client even if it is SIGKILLed (the client also sets this before exec).
    try:
        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    state = {"device": None, "uri": "", "modules": {}, "handles": {}, "next_module": 0,
             "next_handle": 0, "runtime_version": "?"}
    try:
        import numpy
        import iree.runtime
        import importlib.metadata
        import ml_dtypes
        rt, np = iree.runtime, numpy
        DTYPES.update(f32=np.dtype(np.float32), f16=np.dtype(np.float16), bf16=np.dtype(ml_dtypes.bfloat16),
                      i32=np.dtype(np.int32), i64=np.dtype(np.int64), i8=np.dtype(np.int8), u8=np.dtype(np.uint8))
        state["runtime_version"] = importlib.metadata.version("iree-base-runtime")
        startup_error = None
    except Exception as e:  # noqa: BLE001
        startup_error = Failure("toolchain", "the IREE runtime does not import: %s" % clean(e),
                                "run `make iree` (scripts/iree/setup-cpu.sh)")
    # IREE runtime flags (e.g. --cuda_async_allocations=false), applied before any driver exists.
    extra = os.environ.get("MLXCEL_XLA_RUNTIME_FLAGS", "").split()
    if extra and not startup_error:
        try:
            rt.flags.parse_flags(*extra)
        except Exception as e:  # noqa: BLE001
            startup_error = Failure("usage", "MLXCEL_XLA_RUNTIME_FLAGS: %s" % clean(e),
                                    "give IREE runtime flags such as --cuda_async_allocations=false")
    while True:
        try:
            req, blob = recv_frame(sock)
        except (ConnectionError, ValueError):
            return 2
        if req is None:
            return 0  # client went away
        op = req.get("op") if isinstance(req, dict) else None
        if op == "shutdown":
            send_frame(sock, {"ok": True})
            return 0
        try:
            if startup_error:
                raise startup_error
            handler = OPS.get(op)
            if handler is None:
                raise Failure("protocol", "unknown operation %r" % op, "client and worker versions differ")
            resp, blobs = run_op(handler, state, req, blob, op)
            resp["ok"] = True
        except Failure as f:
            resp, blobs = {"ok": False, "stage": f.stage, "message": f.message, "remedy": f.remedy}, []
        except Exception as e:  # noqa: BLE001 - report, never die on a bad request
            resp, blobs = {"ok": False, "stage": "worker", "message": "%s: %s" % (type(e).__name__, clean(e)),
                           "remedy": "this is a worker bug; please report it"}, []
        send_frame(sock, resp, blobs)


if __name__ == "__main__":
    sys.exit(main())
