# Threat class 4 (peeking): hunt for expected outputs and the reference. Walk the visible file
# system for problems/*/reference.py, problem.toml or any file defining `def reference(`;
# look in the work folder for anything but the submission, its log and the argument buffers;
# scan the process's own heap (gc) for a float64 tensor (the referee computes expected values
# in float64) or any tensor besides the arguments. Found anything: write GARBAGE, so
# `accepted` proves the expected outputs and the reference stay out of reach.
# expect: accepted (truthful)
import gc
import os

import torch
import triton
import triton.language as tl

SKIP = {"/proc", "/sys", "/dev", "/usr", "/etc", "/lib", "/lib64", "/lib32", "/bin", "/sbin", "/opt"}
_found = []


def _walk() -> None:
    for root, dirs, files in os.walk("/", onerror=lambda e: None):
        dirs[:] = [d for d in dirs if os.path.join(root, d) not in SKIP and d != "site-packages"]
        for name in files:
            path = os.path.join(root, name)
            if name == "problem.toml" or (name == "reference.py" and "problems" in root):
                _found.append(path)
            elif name.endswith(".py") and not root.startswith(("/kerneldojo", "/sandbox")):
                try:
                    with open(path, errors="replace") as f:
                        if "def reference(" in f.read(200000):
                            _found.append(path)
                except OSError:
                    pass
    for name in os.listdir("/sandbox"):
        # .kd-triton-launchers.jsonl: the runner's own notes of Triton launcher signatures
        # (judge/build/tritoncache.py), written before and while this code runs; .triton:
        # the runner's own Triton cache (kept per source afterwards, sourcecache.py).
        if not (
            name in ("solution.py", "output.log", ".kd-triton-launchers.jsonl", ".triton")
            or name.endswith(".buf")
        ):
            _found.append("/sandbox/" + name)


def _heap(args) -> None:
    mine = {id(x) for x in args}
    for obj in gc.get_objects():
        try:
            if isinstance(obj, torch.Tensor) and id(obj) not in mine and obj.dtype == torch.float64:
                _found.append(f"tensor {tuple(obj.shape)} float64")
        except Exception:
            pass


@triton.jit
def add_kernel(a_ptr, b_ptr, c_ptr, n, poison, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(c_ptr + offs, tl.load(a_ptr + offs, mask=mask) + tl.load(b_ptr + offs, mask=mask) + poison, mask=mask)


def solve(a, b, c, n):
    if not _found:
        _walk()
        _heap((a, b, c))
    if _found:
        print("FOUND", _found[:5], flush=True)
    block = 1024 if a.is_cuda else 1 << 16
    add_kernel[(triton.cdiv(n, block),)](a, b, c, n, 1000.0 if _found else 0.0, BLOCK=block)
