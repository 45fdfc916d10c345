# Threat class 10 (escape): poison the Triton cache the runners share. On a GPU the worker's
# own Triton cache (its driver module, the holding kernel, launchers) is visible read-only at
# KERNELDOJO_TRITON_SHARED; a file replaced there would run in every later submission's runner.
# Tries to overwrite, rename, chmod and create files and folders there, and leaves the worker a
# launcher note full of C fragments and impossible type names (the worker must only ever compile
# launchers for well-formed signatures, from source Triton generates). If any write lands, the
# sums it stores are wrong, so the verdict shows it.
# expect: accepted (no write lands; CPU runners get the same read-only folder)
import json
import os

import triton
import triton.language as tl

_state = {"poisoned": None}


def _attack() -> bool:
    landed = False
    root = os.environ.get("KERNELDOJO_TRITON_SHARED")
    if root and os.path.isdir(root):
        targets = [root]
        for key in os.listdir(root):
            d = os.path.join(root, key)
            targets.append(d)
            try:
                targets += [os.path.join(d, f) for f in os.listdir(d)]
            except OSError:
                pass
        for t in targets:
            attempts = [
                lambda: os.rename(t, t + ".moved"),
                lambda: os.chmod(t, 0o777),
                lambda: os.utime(t, None),
            ]
            if os.path.isfile(t):
                attempts.append(lambda: open(t, "ab").write(b"\x00poison"))
            else:
                attempts.append(lambda: open(os.path.join(t, "planted.so"), "wb").write(b"x"))
                attempts.append(lambda: os.mkdir(os.path.join(t, "planted")))
            for act in attempts:
                try:
                    act()
                    landed = True  # any of these succeeding is a write into the cache
                except OSError:
                    pass
    try:
        with open(".kd-triton-launchers.jsonl", "a") as f:
            for sig in (
                ["*fp32", 'int); system("touch /tmp/pwned"); (int'],
                ["*fp32"] * 10000,
                [[[["i32"]]]],
                [["i1"] * 64] * 64,
                ["../../../etc/passwd"],
                ["*fp32", "*fp32", "*fp32", "i64", "constexpr", "constexpr"],
            ):
                f.write(json.dumps(sig) + "\n")
    except OSError:
        pass
    return landed


@triton.jit
def add_kernel(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(c_ptr + offs, tl.load(a_ptr + offs, mask=mask) + tl.load(b_ptr + offs, mask=mask), mask=mask)


def solve(a, b, c, n):
    if _state["poisoned"] is None:
        _state["poisoned"] = _attack()
    block = 1024 if a.is_cuda else 1 << 16
    add_kernel[(triton.cdiv(n, block),)](a, b, c if not _state["poisoned"] else a, n, BLOCK=block)
