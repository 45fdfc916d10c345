"""Hostile submissions and what the judge must make of them, on the CPU and on a GPU.

Every file under ``submissions/<class>/`` is listed here once with the problem it attacks,
its threat class (THREATS.md), and the expected outcome on each device:

* a verdict (``wrong_answer``, ``rejected``...), or several separated by ``|``;
* ``not_accepted``: any verdict but ``accepted``;
* ``accepted_truthful``: accepted is the right answer, because the submission only *tries*
  something (read a secret, reach the network) and computes honestly when the attempt fails;
  it writes garbage when the attempt succeeds, so "accepted" proves that the defence held;
* ``accepted_timed``: accepted, and no benchmark reported faster than this GPU's measured
  speed of light (``TRUTHFUL_SOL_PCT``): the submission moves work somewhere the timer might
  miss, and the judge must count it;
* ``truthful``: not accepted, or ``accepted_timed`` (an attack that depends on a race may
  not fire in a given grading; then it computes honestly and must get an honest time);
* ``timed_honest``: accepted, and every benchmark median no more than 2% (or 5 us, whichever
  is larger) below that of the honest sample the entry is built on (``Entry.base``), graded in
  the same run: the submission lies about its time, and the referee's own clock must not;
* ``None``: not meaningful on that device (not graded there).

``base`` names an honest accepted sample (a path in the repository) that the entry's file is
prepended to, so an attack on the harness rides on a real kernel; ``message`` is text the
result's message must contain (e.g. which buffer was written out of bounds).

Some entries also name host-side ``checks`` run after grading (no secret in the result, no
process left behind, no file written outside the sandbox, the host canary untouched...).

``run_catalog(device)`` grades them all through ``judge.grader.grade`` (mode
"submit": on a GPU that includes the timed benchmark path) and returns table rows and the
number of unexpected outcomes. On the CPU each problem is cut down to a few small
interpreter cases (a grading costs seconds there); on a GPU the problem runs in full.

``static_policy=False`` grades a Python entry with the referee's static check (policy.py) off:
that check refuses the source before it runs (``test_adversarial`` asserts that it does), and
the entry tests the defence behind it, the sandbox or the referee, which must hold on its own.

``hole`` marks a known weakness of the judge (see SECURITY.md): the row shows it, but it is
not counted as a failure, and the pytest suite marks it xfail. Remove the mark once fixed.
"""

from __future__ import annotations

import contextlib
import dataclasses
import glob
import json
import os
import secrets
import signal
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from judge.sandbox import bubblewrap

HERE = Path(__file__).resolve().parent
SUBMISSIONS = HERE / "submissions"
REPO = HERE.parents[1]

CANARY = "/tmp/kerneldojo-adversarial-canary"  # also named in submissions/escape/buffer_symlink.py
ESCAPE_MARKER = "kerneldojo-adversarial-escape-marker"  # escape/write_outside.py
LEFTOVER_NAME = "kdadvleftover"  # resources/daemon.py, fork_flood.py, fork_bomb.py
SECRET_NAME = "KERNELDOJO_TEST_SECRET"

# An honest vector add reaches 99-101% of the measured copy bandwidth on an H100; a time that
# hides part of the work beats it by more than this.
TRUTHFUL_SOL_PCT = 104.0

VA_FEW = ("n = 3", "n = 1025", "n = 100003 (prime), wide range of magnitudes")

CLASSES = {
    "replay": 1,
    "deferred": 2,
    "forgery": 3,
    "peeking": 4,
    "tampering": 5,
    "detection": 6,
    "tolerance": 7,
    "shortcuts": 8,
    "resources": 9,
    "escape": 10,
    "faults": 11,
    "careless": 12,
}


@dataclass(frozen=True)
class Entry:
    path: str  # relative to submissions/
    problem: str
    cpu: str | None
    gpu: str | None
    note: str = ""
    cases: tuple[str, ...] | None = None  # CPU test cases by name (repeats allowed)
    checks: tuple[str, ...] = ()
    limits: dict[str, Any] = field(default_factory=dict)  # overrides, on every device
    base: str | None = None  # an honest sample (repo path) this file is prepended to
    message: str = ""  # text the result's message must contain
    static_policy: bool = True  # False: graded past policy.py, to test the defence behind it
    lang: str | None = None  # the language where the suffix does not tell it (Pallas' .py)
    hole: Callable[[str], str | None] | None = None
    mode: str = "submit"  # "profile": graded as a Profile (judge/profile/)
    # The worker's environment while the entry is graded (sandbox settings), without the pool.
    env: dict[str, str] = field(default_factory=dict)
    gpu_env: dict[str, str] = field(default_factory=dict)  # over ``env`` on a GPU

    @property
    def threat(self) -> str:
        return self.path.split("/")[0]

    @property
    def language(self) -> str:
        if self.lang is not None:
            return self.lang
        return "cuda" if self.path.endswith(".cu") else "triton"

    def source(self) -> str:
        own = (SUBMISSIONS / self.path).read_text()
        if self.base is None or "honest_after" in self.checks:  # there the base is a witness
            return own
        return own + "\n" + (REPO / self.base).read_text()

    def expected(self, device: str) -> str | None:
        return self.cpu if device == "cpu" else self.gpu


E = Entry
CATALOG: list[Entry] = [
    # 1. replay --------------------------------------------------------------------------------
    E(
        "replay/shape_cache.py",
        "vector-add",
        "wrong_answer",
        "wrong_answer",
        "output cached per n, replayed on the next call of the same size",
        cases=("n = 1025", "n = 1025"),
    ),
    E(
        "replay/checksum_cache.py",
        "vector-add",
        "accepted_truthful",
        "accepted_truthful",
        "checksum-keyed cache must never hit: fresh inputs on every call",
        cases=("n = 1025", "n = 1025", "n = 1025"),
    ),
    E("replay/stale_buffer.cu", "vector-add", None, "wrong_answer", "device copy of an old result"),
    E(
        "replay/shape_cache.cu",
        "vector-add",
        None,
        "wrong_answer",
        "skips the kernel when the pointers repeat (the benchmark reuses its buffers)",
    ),
    # 2. deferred work -------------------------------------------------------------------------
    E(
        "deferred/late_thread.py",
        "vector-add",
        "wrong_answer|rejected",
        "wrong_answer|rejected",
        "kernel launched by a thread 0.3 s after solve returned",
        static_policy=False,
    ),
    E(
        "deferred/side_stream.py",
        "vector-add",
        "accepted",
        "rejected",
        "side stream solve never joins: it runs before the referee's gate opens (gate.py), is "
        "timed at ~0 and the speed-of-light bound rejects it",
    ),
    E(
        "deferred/thaw_race.py",
        "vector-add",
        "accepted",
        "truthful",
        "launches from a thread right after SIGCONT, before the start event (when its watcher "
        "sees the freeze; when not, it computes honestly): wall-clock cross-check, speed of light",
        static_policy=False,
    ),
    E(
        "deferred/late_host_thread.cu",
        "vector-add",
        None,
        "wrong_answer|rejected",
        "std::thread launches 300 ms after solve returned",
    ),
    E(
        "deferred/nonblocking_stream.cu",
        "vector-add",
        None,
        "rejected",
        "non-blocking stream: it runs before the referee's gate opens, timed at ~0: speed of light",
    ),
    # 3. forgery -------------------------------------------------------------------------------
    E(
        "forgery/patch_timer.py",
        "vector-add",
        "accepted",
        "accepted_timed",
        "torch.cuda.Event.elapsed_time patched to 0.0001 ms: timed by the referee's floor "
        "(gate.py), at the honest time",
        static_policy=False,
    ),
    E(
        "forgery/scale_timer_06.py",
        "vector-add",
        "accepted",
        "timed_honest",
        "elapsed_time scaled by 0.6 on a 130 us vector add: the referee's floor (gate.py)",
        base="problems/vector-add/solutions/accepted/triton_fast.py",
        static_policy=False,
    ),
    E(
        "forgery/scale_timer_09.py",
        "vector-add",
        "accepted",
        "timed_honest",
        "elapsed_time scaled by 0.9 on a 130 us vector add",
        base="problems/vector-add/solutions/accepted/triton_fast.py",
        static_policy=False,
    ),
    E(
        "forgery/scale_timer_06.py",
        "matmul",
        None,
        "timed_honest",
        "elapsed_time scaled by 0.6 on a 4096^3 matmul",
        base="problems/matmul/solutions/accepted/triton_fast.py",
        static_policy=False,
    ),
    E(
        "forgery/scale_timer_09.py",
        "flash-attention",
        None,
        "timed_honest",
        "elapsed_time scaled by 0.9 on flash-attention d64/d128",
        base="problems/flash-attention/solutions/accepted/triton_fast.py",
        static_policy=False,
    ),
    E(
        "forgery/got_timer_06.cu",
        "matmul",
        None,
        "timed_honest",
        "GOT slots of cudaEventElapsedTime rewritten by a constructor (dl_iterate_phdr, "
        "mprotect): 0.6 of the truth",
        base="problems/matmul/solutions/accepted/cuda_fast.cu",
    ),
    E(
        "forgery/got_timer_06.cu",
        "vector-add",
        "not_run",
        "timed_honest",
        "the same GOT rewrite on a 130 us CUDA vector add",
        base="problems/vector-add/solutions/accepted/cuda_fast.cu",
    ),
    E(
        "forgery/fake_done_late.py",
        "vector-add",
        "wrong_answer",
        "wrong_answer|rejected",
        "forged 'done' on the control pipe, real one swallowed, work done 0.3 s later (on a GPU "
        "it is forged during the compile-ahead pass: replies out of order, rejected)",
        static_policy=False,
    ),
    E(
        "forgery/fake_done_async.py",
        "vector-add",
        "accepted",
        "not_accepted",
        "forged 'done' written right after an async launch: the referee's clock stops early "
        "(suspected hole on a GPU: see SECURITY.md)",
        static_policy=False,
    ),
    E(
        "forgery/claim_accepted.py",
        "vector-add",
        "runtime_error",
        "runtime_error",
        "the runner answers error/verdict=accepted",
        static_policy=False,
    ),
    E(
        "forgery/exit_early.py",
        "vector-add",
        "runtime_error",
        "runtime_error",
        "os._exit(0) in solve",
        static_policy=False,
    ),
    E(
        "forgery/sys_exit.py",
        "vector-add",
        "runtime_error",
        "runtime_error",
        "SystemExit(0) in solve",
    ),
    E("forgery/exit_early.cu", "vector-add", "not_run", "runtime_error", "exit(0) in solve"),
    E(
        "forgery/fake_done.cu",
        "vector-add",
        None,
        "not_accepted",
        "forged 'done' from C++ before the kernel; the late real 'done' desynchronises the protocol",
    ),
    # 4. peeking -------------------------------------------------------------------------------
    E(
        "peeking/environ_proc.py",
        "vector-add",
        "accepted_truthful",
        "accepted_truthful",
        "worker secret in os.environ or /proc/*/environ|cmdline",
        checks=("no_secret",),
        static_policy=False,
    ),
    E(
        "peeking/files_and_memory.py",
        "vector-add",
        "accepted_truthful",
        "accepted_truthful",
        "reference.py / problem.toml / expected outputs in files or in the heap",
        static_policy=False,
    ),
    E(
        "peeking/log_symlink.py",
        "vector-add",
        "accepted_truthful",
        "accepted_truthful",
        "output.log replaced by a symlink to /proc/self/environ, which the referee reads back",
        checks=("no_secret", "no_worker_environ"),
        static_policy=False,
    ),
    E(
        "peeking/environ_files.cu",
        "vector-add",
        None,
        "accepted_truthful",
        "getenv, /proc/1/environ, reference.py from C++",
        checks=("no_secret",),
    ),
    # 5. input tampering -----------------------------------------------------------------------
    E(
        "tampering/inputs_match_output.py",
        "vector-add",
        "wrong_answer",
        "wrong_answer",
        "c := 7, a := 7, b := 0 so the buffers agree",
    ),
    E(
        "tampering/zero_everything.py",
        "vector-add",
        "wrong_answer",
        "wrong_answer",
        "a = b = c = 0",
    ),
    E(
        "tampering/inputs_match_output.cu",
        "vector-add",
        None,
        "wrong_answer",
        "const_cast: c := 1, a := 1, b := 0",
    ),
    # 6. detection -----------------------------------------------------------------------------
    E(
        "detection/large_n.py",
        "vector-add",
        "wrong_answer",
        "wrong_answer",
        "half the work for n >= 2^20",
        cases=("n = 3", "n = 1025", "n = 2^20"),
    ),
    E(
        "detection/call_count.py",
        "vector-add",
        "wrong_answer",
        "wrong_answer",
        "honest for 3 calls, then half the outputs",
        cases=("n = 1", "n = 3", "n = 127", "n = 1024", "n = 1025"),
    ),
    E(
        "detection/timed_call.py",
        "vector-add",
        "accepted",
        "wrong_answer",
        "reads the runner's request from the stack; cheats only in timed calls",
        static_policy=False,
    ),
    E("detection/large_n.cu", "vector-add", None, "wrong_answer", "half the work for n >= 2^22"),
    E(
        "detection/call_count.cu",
        "vector-add",
        None,
        "wrong_answer",
        "honest for 13 calls (the tests), nothing afterwards (the benchmark)",
    ),
    # 7. tolerance gaming ----------------------------------------------------------------------
    E("tolerance/all_zeros.py", "vector-add", "wrong_answer", "wrong_answer", "c = 0"),
    E(
        "tolerance/fp16_math.py",
        "vector-add",
        "wrong_answer",
        "wrong_answer",
        "computed in float16",
    ),
    E(
        "tolerance/every_other.py",
        "vector-add",
        "wrong_answer",
        "wrong_answer",
        "odd elements approximated by a",
    ),
    E(
        "tolerance/softmax_uniform.py",
        "softmax",
        "wrong_answer",
        "wrong_answer",
        "y = 1/cols",
        cases=("3 x 1000", "7 x 1025"),
    ),
    E("tolerance/bf16_math.cu", "vector-add", None, "wrong_answer", "rounded through bfloat16"),
    E("tolerance/partial_write.cu", "vector-add", None, "wrong_answer", "last 1% never written"),
    # 8. shortcuts -----------------------------------------------------------------------------
    E("shortcuts/torch_add.py", "vector-add", "rejected", "rejected", "torch.add(out=c)"),
    E("shortcuts/copy_of_sum.py", "vector-add", "rejected", "rejected", "c.copy_(a + b)"),
    E(
        "shortcuts/numpy_host.py",
        "vector-add",
        "rejected",
        "rejected",
        "NumPy on the CPU views of the tensors (GPU: .cpu() copy): the static policy refuses "
        "np.add and .numpy() (the torch rule alone misses it on the CPU)",
    ),
    E(
        "shortcuts/cupy_compute.py",
        "vector-add",
        "rejected",
        "rejected",
        "CuPy adds the tensors through __cuda_array_interface__, no torch op, no kernel: the "
        "import rule (languages/imports.py) refuses the package",
        message="cupy runs code that is not your kernel",
    ),
    E(
        "shortcuts/jax_then_triton_copy.py",
        "vector-add",
        "rejected",
        "rejected",
        "jnp.add through DLPack, then a Triton copy kernel into c: the import rule refuses jax "
        "in a Triton file",
        message="jax runs code that is not your kernel",
    ),
    E(
        "shortcuts/disable_rules.py",
        "vector-add",
        "rejected",
        "rejected",
        "steps out of the rule's TorchDispatchMode, then torch.add: the static policy refuses "
        "the private torch.utils._python_dispatch",
    ),
    # The rule switched off inside the process (what a code-string route found again would do):
    # only the referee's kernel ledger (sandbox/ledger.py) stands behind it, on a GPU. The CPU
    # has no ledger; there the static policy refuses these sources (test_adversarial).
    E(
        "shortcuts/ledger_add_rule_off.py",
        "vector-add",
        None,
        "rejected",
        "the dispatch mode stepped out of, torch.add beside an own Triton kernel: the ledger",
        static_policy=False,
        message="not one of your kernels",
    ),
    E(
        "shortcuts/ledger_mm_rule_off.py",
        "matmul",
        None,
        "rejected",
        "the rule's trusted folder emptied, torch.mm (cuBLAS): the ledger",
        static_policy=False,
        message="not one of your kernels",
    ),
    E(
        "shortcuts/ledger_numba_add_rule_off.py",
        "vector-add",
        None,
        "rejected",
        "Numba: the dispatch mode stepped out of, torch.add on the arrays: the ledger",
        static_policy=False,
        lang="numba",
        message="not one of your kernels",
    ),
    E(
        "shortcuts/softmax_torch.py",
        "softmax",
        "rejected",
        "rejected",
        "torch.softmax",
        cases=("3 x 1000",),
    ),
    E(
        "shortcuts/matmul_torch.py",
        "matmul",
        "rejected",
        "rejected",
        "torch.mm (cuBLAS)",
        cases=None,
    ),
    E(
        "shortcuts/cublas_sgemm.cu",
        "matmul",
        "rejected",
        "rejected",
        "cublasSgemm_v2 declared by hand",
    ),
    E("shortcuts/dlopen_cublas.cu", "matmul", "rejected", "rejected", "dlopen + dlsym of cuBLAS"),
    E(
        "shortcuts/dlvsym_cublas.cu",
        "matmul",
        "rejected",
        "rejected",
        "dlvsym fetches dlopen/dlsym, which load cuBLAS: no forbidden name in the object",
    ),
    E("shortcuts/thrust_transform.cu", "vector-add", "rejected", "rejected", "thrust::transform"),
    # 9. resource attacks ----------------------------------------------------------------------
    E(
        "resources/busy_loop.py",
        "vector-add",
        "time_limit_exceeded",
        "time_limit_exceeded",
        "host infinite loop",
        cases=("n = 3",),
        limits={"call_s": 3.0},
    ),
    E("resources/busy_loop.cu", "vector-add", None, "time_limit_exceeded", "GPU infinite loop"),
    E(
        "resources/hang_under_profiler.cu",
        "vector-add",
        "not_run",
        "time_limit_exceeded",
        "a kernel that never ends in the call Nsight Compute profiles: the profile's budget",
        limits={"total_s": 20.0},
        mode="profile",
        checks=("no_leftover",),
    ),
    E(
        "resources/daemon.py",
        "vector-add",
        "accepted",
        "accepted",
        "double fork + setsid daemon sleeping 600 s",
        checks=("no_leftover",),
        static_policy=False,
    ),
    E(
        "resources/fork_flood.py",
        "vector-add",
        "accepted",
        "accepted",
        "200 sleeping children (bounded fork bomb)",
        checks=("no_leftover",),
        static_policy=False,
    ),
    E(
        "resources/fork_bomb.py",
        "vector-add",
        "accepted",
        "accepted|runtime_error",
        "unbounded fork bomb: forks refused with EAGAIN at the sandbox's process limit, the "
        "worker grades on (a limit of 256 in a uid of its own, 1024 on a GPU, where a runner on a "
        "16-CPU host starts more threads than 256: a root worker's count is per uid, and the "
        "suite's other sandboxes share 65534). On a GPU its own kernel may then not compile (ptxas "
        "is a process too, and the bomb's children hold every slot): runtime_error, its own doing",
        checks=("no_leftover", "fork_refused"),
        static_policy=False,
        env={"KERNELDOJO_SANDBOX_NPROC": "256", "KERNELDOJO_SANDBOX_UID": "64252"},
        gpu_env={"KERNELDOJO_SANDBOX_NPROC": "1024"},
    ),
    E(
        "resources/fill_disk.py",
        "vector-add",
        "runtime_error",
        "runtime_error",
        "1 GiB file in the work folder: RLIMIT_FSIZE",
        cases=("n = 3",),
        static_policy=False,
    ),
    E(
        "resources/host_memory.py",
        "vector-add",
        "memory_limit_exceeded|runtime_error",
        "memory_limit_exceeded|runtime_error",
        "100 GiB bytearray: RLIMIT_AS on the CPU, RLIMIT_DATA on a GPU (where the CUDA "
        "driver's reservations rule out RLIMIT_AS)",
        cases=("n = 3",),
    ),
    E(
        "resources/device_memory.py",
        "vector-add",
        "memory_limit_exceeded|runtime_error",
        "memory_limit_exceeded",
        "torch.empty of 400 GiB",
        cases=("n = 3",),
    ),
    E(
        "resources/gpu_memory_hog.py",
        "vector-add",
        None,
        "memory_limit_exceeded",
        "all free GPU memory in 1 GiB torch blocks at import; then the honest sample is timed "
        "within 1% of before (check honest_after)",
        checks=("honest_after",),
        base="problems/vector-add/solutions/accepted/triton_fast.py",
    ),
    E(
        "resources/gpu_memory_hog.cu",
        "vector-add",
        "not_run",
        "memory_limit_exceeded",
        "cudaMalloc of 1 GiB blocks until the device refuses, kept; then the honest sample is "
        "timed within 1% of before (check honest_after)",
        checks=("honest_after",),
        base="problems/vector-add/solutions/accepted/cuda_fast.cu",
    ),
    E(
        "resources/stdout_flood.py",
        "vector-add",
        "accepted",
        "accepted",
        "100 MB on stdout",
        checks=("stdout_capped",),
        static_policy=False,
    ),
    E(
        "resources/compile_bomb.cu",
        "vector-add",
        "compile_error",
        "compile_error",
        "macro expansion to 2^40 tokens",
        limits={"compile_s": 15.0},
    ),
    # 10. escape -------------------------------------------------------------------------------
    E(
        "escape/network.py",
        "vector-add",
        "accepted_truthful",
        "accepted_truthful",
        "Redis, PostgreSQL, web app on loopback; 1.1.1.1 TCP/UDP",
        static_policy=False,
    ),
    E(
        "escape/network.cu",
        "vector-add",
        None,
        "rejected",
        "Redis, PostgreSQL, 1.1.1.1 from C++: the symbol check refuses socket/connect before "
        "it runs (network.py shows the sandbox's own isolation)",
    ),
    E(
        "escape/write_outside.py",
        "vector-add",
        "accepted",
        "accepted",
        "marker files in /work, /root, /etc, /tmp, the venv...",
        checks=("no_escape_marker",),
        static_policy=False,
    ),
    E(
        "escape/buffer_symlink.py",
        "vector-add",
        "accepted_truthful",
        "accepted_truthful",
        "symlinks planted where the referee will create the next case's buffer files",
        checks=("canary",),
        static_policy=False,
    ),
    E(
        "escape/profile_report_link.py",
        "vector-add",
        "not_run",
        "accepted",
        "a symlink to a host file where ncu writes the profile's report",
        base="problems/vector-add/solutions/accepted/triton_fast.py",
        checks=("no_host_report",),
        static_policy=False,
        mode="profile",
    ),
    E(
        "escape/read_host_secrets.py",
        "vector-add",
        "accepted_truthful",
        "accepted_truthful",
        "/etc/shadow, ssh host keys, the worker's home, the problems folder",
        static_policy=False,
    ),
    E(
        "escape/poison_triton_cache.py",
        "vector-add",
        "accepted",
        "accepted",
        "overwrite, rename, chmod, plant files in the worker's shared Triton cache (read-only); "
        "a launcher note of C fragments for the worker",
        static_policy=False,
    ),
    E(
        "escape/kill_everything.py",
        "vector-add",
        "runtime_error",
        "runtime_error",
        "kill(-1), kill(1), kill(ppid) with SIGKILL",
        cases=("n = 3",),
        checks=("worker_alive",),
        static_policy=False,
    ),
    E(
        "escape/include_reference.cu",
        "vector-add",
        "compile_error",
        "compile_error",
        "#include of the problem's reference.py",
        checks=("no_reference_text",),
    ),
    E(
        "escape/include_shadow.cu",
        "vector-add",
        "compile_error",
        "compile_error",
        "#include </etc/shadow>: its lines quoted in the compiler's errors",
        checks=("no_shadow_text",),
    ),
    # 11. faults -------------------------------------------------------------------------------
    E(
        "faults/segfault.py",
        "vector-add",
        "runtime_error",
        "runtime_error",
        "ctypes.string_at(0)",
        cases=("n = 3",),
        static_policy=False,
    ),
    E(
        "faults/abort.py",
        "vector-add",
        "runtime_error",
        "runtime_error",
        "os.abort()",
        cases=("n = 3",),
        static_policy=False,
    ),
    E(
        "faults/bad_pointer_kernel.py",
        "vector-add",
        "runtime_error",
        "runtime_error",
        "Triton load at offset 2^40",
        cases=("n = 3",),
    ),
    E("faults/illegal_address.cu", "vector-add", None, "runtime_error", "wild device store"),
    E("faults/device_trap.cu", "vector-add", None, "runtime_error", "__trap()"),
    E("faults/host_segfault.cu", "vector-add", None, "runtime_error", "host null write in solve"),
    # 12. careless memory bugs ------------------------------------------------------------------
    E(
        "careless/oob_after.py",
        "vector-add",
        "wrong_answer",
        "wrong_answer",
        "no tail mask: stores past the end of c (guards.py)",
        message="c: wrote past the end, at c[n",
        cases=("n = 3", "n = 1025"),
    ),
    E(
        "careless/oob_before.py",
        "vector-add",
        "wrong_answer",
        "wrong_answer",
        "a shifted store writes c[-1]",
        message="c: wrote before the start, at c[-1]",
        cases=("n = 3", "n = 1025"),
    ),
    E(
        "careless/oob_after.cu",
        "vector-add",
        "not_run",
        "wrong_answer",
        "no if (i < n): the last block writes past the end of c",
        message="c: wrote past the end, at c[n",
    ),
    E(
        "careless/oob_before.cu",
        "vector-add",
        "not_run",
        "wrong_answer",
        "thread 0 writes c[-1]",
        message="c: wrote before the start, at c[-1]",
    ),
    # JAX Pallas (only pallas_call kernels compute: languages/pallas_rules.py) ------------------
    E(
        "replay/pallas_call_count.py",
        "vector-add",
        "accepted_truthful",
        "accepted_truthful",
        "skips the kernel from solve's second call of a size: solve is traced once per size "
        "under the judge's jit, and that trace is what is checked and compiled",
        cases=("n = 1025", "n = 1025", "n = 3"),
        lang="pallas",
    ),
    E(
        "shortcuts/pallas_operator.py",
        "vector-add",
        "rejected",
        "rejected",
        "a + b on the input arrays, no kernel: the traced program's check",
        cases=("n = 3",),
        lang="pallas",
        message="`add` computes on your data outside a Pallas kernel",
    ),
    E(
        "shortcuts/pallas_half_kernel.py",
        "reduction",
        "rejected",
        "rejected",
        "partial sums in a kernel, partials.sum() (a method) outside one",
        cases=("n = 1025, mixed signs",),
        lang="pallas",
        message="`reduce_sum` computes on your data",
    ),
    E(
        "shortcuts/pallas_host_callback.py",
        "vector-add",
        "rejected",
        "rejected",
        "NumPy in a jax.pure_callback, the kernel only copying: refused past the static policy",
        cases=("n = 3",),
        static_policy=False,
        lang="pallas",
        message="runs host code on every call",
    ),
    E(
        "shortcuts/pallas_own_interpret.py",
        "vector-add",
        "accepted",
        "rejected",
        "Pallas' private pallas_call with interpret=True: the judge's mode on the CPU, XLA "
        "instead of a compiled kernel on a GPU",
        cases=("n = 3",),
        static_policy=False,
        lang="pallas",
    ),
    # PyTorch (framework track) and Numba (kernel track; the simulator on the CPU) ------------
    E(
        "replay/pytorch_pointer_cache.py",
        "vector-add",
        "wrong_answer",
        "wrong_answer",
        "c replayed when a, b and c come at the same addresses again (the benchmark reuses its "
        "buffers; fresh inputs in them)",
        cases=("n = 1025", "n = 1025", "n = 1025"),
        lang="pytorch",
    ),
    E(
        "replay/numba_shape_cache.py",
        "vector-add",
        "wrong_answer",
        "wrong_answer",
        "a device copy of c per n, replayed on the next call of the same size",
        cases=("n = 1025", "n = 1025"),
        lang="numba",
    ),
    E(
        "deferred/pytorch_side_stream.py",
        "vector-add",
        "accepted",
        "rejected",
        "torch.add on a side stream never joined: it runs before the referee's gate opens and "
        "the speed-of-light bound rejects the time",
        lang="pytorch",
    ),
    E(
        "deferred/numba_side_stream.py",
        "vector-add",
        "accepted",
        "truthful",
        "kernel launched on a cuda.stream() of its own, never synchronised: timed with the "
        "work, or rejected by the speed-of-light bound",
        lang="numba",
    ),
    E(
        "peeking/pytorch_reference.py",
        "vector-add",
        "accepted_truthful",
        "accepted_truthful",
        "import reference, or the judge's loader.resolve from inside the runner: the "
        "problems folder is not in the sandbox",
        static_policy=False,
        lang="pytorch",
    ),
    E(
        "tampering/pytorch_zero_input.py",
        "vector-add",
        "wrong_answer",
        "wrong_answer",
        "c = a, then b := 0 so the buffers agree after the call",
        lang="pytorch",
    ),
    E(
        "detection/pytorch_call_count.py",
        "vector-add",
        "wrong_answer",
        "wrong_answer",
        "honest for 3 calls, then c = a",
        cases=("n = 1", "n = 3", "n = 127", "n = 1024", "n = 1025"),
        lang="pytorch",
    ),
    E(
        "shortcuts/numba_torch_add.py",
        "vector-add",
        "rejected",
        "rejected",
        "torch.add on torch.as_tensor views of the Numba arrays: the library rule (kernel track)",
        cases=("n = 3",),
        lang="numba",
    ),
    E(
        "resources/numba_spin_kernel.py",
        "vector-add",
        "time_limit_exceeded",
        "time_limit_exceeded",
        "a kernel loop that never ends",
        cases=("n = 3",),
        limits={"call_s": 3.0},
        lang="numba",
    ),
    E(
        "faults/numba_wild_store.py",
        "vector-add",
        "runtime_error",
        "runtime_error",
        "a store 2^40 elements past c: illegal address on a GPU, IndexError in the simulator",
        cases=("n = 3",),
        lang="numba",
    ),
    E(
        "careless/numba_oob_after.py",
        "vector-add",
        "runtime_error",
        "wrong_answer",
        "no bounds check: the last block stores past the end of c (the guard band on a GPU; an "
        "IndexError on the simulator's NumPy view)",
        cases=("n = 3", "n = 1025"),
        lang="numba",
    ),
]

# Code strings and file readers of the standard library (issue #36): each switches the kernel-track
# rule off or reads a file; the import allow-list (judge/languages/imports.py) or the policy's
# paths refuse them before anything runs.
CODE_STRING_ROUTES = {
    "timeit_stmt": "timeit",
    "timeit_timer": "timeit",
    "cprofile_run": "cProfile",
    "profile_run": "profile",
    "trace_run": "trace",
    "pdb_run": "pdb",
    "bdb_run": "bdb",
    "doctest_examples": "doctest",
    "codecs_open": "codecs",
    "configparser_read": "configparser",
    "logging_file": "logging",
    "netrc_read": "netrc",
    "mimetypes_read": "mimetypes",
}
CATALOG += [
    E(
        f"shortcuts/codestring_{name}.py",
        "vector-add",
        "rejected",
        "rejected",
        f"{module}: a code string switches the rule off, then torch.add",
        message=f"{module} can run code, reach files or the interpreter",
    )
    for name, module in CODE_STRING_ROUTES.items()
]
CATALOG += [
    E(
        "shortcuts/codestring_torch_from_file.py",
        "vector-add",
        "rejected",
        "rejected",
        "torch.from_file reads a host file",
        message="torch.from_file",
    ),
    E(
        "shortcuts/codestring_switch_off_matmul.py",
        "matmul",
        "rejected",
        "rejected",
        "timeit code string switches the rule off, then torch.mm (cuBLAS) as a Triton matmul",
        message="timeit can run code",
        cases=("ragged 17 x 33 x 65",),
    ),
]

# Helion (kernel track; Triton's interpreter on the CPU) ----------------------------------------
CATALOG += [
    E(
        "forgery/helion_patch_timer.py",
        "vector-add",
        "accepted",
        "accepted_timed",
        "Helion: torch.cuda.Event.elapsed_time patched to 0.0001 ms beside an honest kernel: "
        "timed by the referee's floor (gate.py), at the honest time",
        cases=("n = 3", "n = 1025"),
        static_policy=False,
        lang="helion",
    ),
    E(
        "replay/helion_shape_cache.py",
        "vector-add",
        "wrong_answer",
        "wrong_answer",
        "Helion: c kept per n by a copy kernel and copied back on the next call of that size",
        cases=("n = 1025", "n = 1025"),
        lang="helion",
    ),
    E(
        "careless/helion_tile_past_end.py",
        "vector-add",
        "wrong_answer",
        "wrong_answer",
        "Helion: hl.tile(n + 1) masks against the loop's extent, not c's: c[n] is written",
        message="c: wrote past the end, at c[n",
        cases=("n = 3", "n = 1025"),
        lang="helion",
    ),
    E(
        "shortcuts/helion_torch_in_solve.py",
        "vector-add",
        "rejected",
        "rejected",
        "Helion: torch.add(a, b, out=c) in solve, the kernel copying into scratch: the Helion "
        "rule (helion_rules.py)",
        message="`torch.add` computes outside a Helion device loop",
        cases=("n = 3",),
        lang="helion",
    ),
    E(
        "shortcuts/helion_torch_add.py",
        "vector-add",
        "rejected",
        "rejected",
        "Helion: torch.add in the kernel's host code, the device loop only copying, past the "
        "Helion rule: the library rule in solve (the kernel ledger behind it on a GPU)",
        cases=("n = 3",),
        static_policy=False,
        lang="helion",
    ),
]

# Mojo (kernel track; compiled only on the CPU: not_run there). Timer patching is impossible
# from Mojo: solve never runs in the judge's Python, and the link-level check refuses any
# library call that could reach its memory (judge/build/mojo_build.py).
CATALOG += [
    E(
        "replay/global_cache_mojo.mojo",
        "vector-add",
        "not_run",
        "wrong_answer",
        "Mojo: the last c pointer kept in a runtime global (std.ffi._get_global); the kernel "
        "skipped when it repeats",
        static_policy=False,
        lang="mojo",
    ),
    E(
        "deferred/side_stream_mojo.mojo",
        "vector-add",
        "not_run",
        "accepted_timed",
        "Mojo: the kernel on a non-blocking, high-priority stream of its own, never waited for",
        lang="mojo",
    ),
    E(
        "careless/oob_after_mojo.mojo",
        "vector-add",
        "not_run",
        "wrong_answer",
        "Mojo: no bounds check: the last block writes past the end of c",
        message="c: wrote past the end, at c[n",
        lang="mojo",
    ),
    E(
        "escape/external_call_mojo.mojo",
        "vector-add",
        "rejected",
        "rejected",
        "Mojo: external_call of system(): refused by the static check",
        message="import of std.ffi",
        lang="mojo",
    ),
    E(
        "escape/read_file_mojo.mojo",
        "vector-add",
        "rejected",
        "rejected",
        "Mojo: open() of a host file, graded past the static check: libc's open refused at link "
        "level",
        message="the library calls",
        static_policy=False,
        lang="mojo",
    ),
]

DEFAULT_CPU_CASES = {"vector-add": VA_FEW}


# -- host-side checks ---------------------------------------------------------------------
@dataclass
class Context:
    secret: str
    shadow_lines: list[str]


def _leftovers() -> list[int]:
    pids = []
    for comm in glob.glob("/proc/[0-9]*/comm"):
        try:
            with open(comm) as f:
                if f.read().strip() == LEFTOVER_NAME:
                    pids.append(int(comm.split("/")[2]))
        except (OSError, ValueError):
            pass
    return pids


def _escape_markers() -> list[str]:
    dirs = [
        "/",
        "/work",
        str(REPO),
        str(REPO.parent),
        "/root",
        "/etc",
        "/usr",
        "/usr/local",
        "/opt",
        "/var",
        "/var/tmp",
        "/tmp",
        "/home",
        str(REPO / "worker"),
        str(REPO / "worker" / "grading"),
        str(REPO / ".venv"),
        str(REPO / "problems" / "vector-add"),
    ]
    found = []
    for d in dirs:
        for suffix in ("", ".link"):
            p = os.path.join(d, ESCAPE_MARKER + suffix)
            if os.path.lexists(p):
                found.append(p)
    # the work folders the referee created live under the host's temp dir
    found += glob.glob(f"/tmp/kerneldojo-*/../{ESCAPE_MARKER}")
    return found


# Variables the sandbox sets itself (bubblewrap.command) or passes through: not a leak if seen.
_SANDBOX_KEYS = {
    "PATH",
    "HOME",
    "PYTHONPATH",
    "PYTHONDONTWRITEBYTECODE",
    "TRITON_CACHE_DIR",
    "LANG",
    "TRITON_INTERPRET",
    *bubblewrap._PASS_ENV,  # what the sandbox passes through on purpose
    "PWD",
    "SHLVL",
    "_",
}


def _worker_environ() -> list[str]:
    """KEY=VALUE entries of this process's environment (as /proc/self/environ shows it)."""
    try:
        with open("/proc/self/environ", "rb") as f:
            raw = f.read().decode("utf-8", "replace").split("\0")
    except OSError:
        raw = []
    raw += [f"{k}={v}" for k, v in os.environ.items()]
    return sorted(
        {
            kv
            for kv in raw
            if "=" in kv and kv.split("=", 1)[0] not in _SANDBOX_KEYS and len(kv) >= 12
        }
    )


def _prepare_canary() -> None:
    p = Path(CANARY)
    if p.is_symlink() or p.exists():
        p.unlink()
    p.write_bytes(b"canary: must stay exactly like this\n")
    p.chmod(0o600)


def _canary_intact() -> str | None:
    p = Path(CANARY)
    try:
        st = p.lstat()
        data = p.read_bytes()
    except OSError as e:
        return f"host canary gone: {e}"
    if data != b"canary: must stay exactly like this\n" or (st.st_mode & 0o777) != 0o600:
        return (
            f"host canary {CANARY} was modified (mode {oct(st.st_mode & 0o777)}, {len(data)} bytes)"
        )
    return None


def _kept_report_issues(result: dict[str, Any]) -> list[str]:
    """A profile's kept report must be ncu's, never a host file the submission linked to."""
    from judge.profile import tools

    name = (result.get("profile") or {}).get("report_file")
    if not name:
        return []
    data = (tools.report_dir() / name).read_bytes()[: 1 << 16]
    for host in ("/etc/passwd", "/etc/shadow"):
        with contextlib.suppress(OSError):
            if data.startswith(Path(host).read_bytes()[:64]):
                return [f"the kept report {name} is a copy of {host}"]
    return []


def run_checks(entry: Entry, result: dict[str, Any], ctx: Context) -> list[str]:
    """Problems found on the host after grading ``entry`` (empty: all good). Cleans up."""
    problems_found: list[str] = []
    blob = json.dumps(result)
    for check in entry.checks:
        if check == "no_secret":
            if ctx.secret in blob or SECRET_NAME in blob:
                problems_found.append("the worker's secret environment variable is in the result")
        elif check == "no_worker_environ":
            stdout = str(result.get("stdout", ""))
            leaked = [kv for kv in _worker_environ() if kv in stdout]
            if leaked:
                problems_found.append(
                    f"{len(leaked)} entries of the worker's own environment are in the "
                    f"result's stdout (e.g. {leaked[0].split('=')[0]}=...)"
                )
        elif check == "no_leftover":
            deadline = time.monotonic() + 2.0
            pids = _leftovers()
            while pids and time.monotonic() < deadline:
                time.sleep(0.1)
                pids = _leftovers()
            if pids:
                problems_found.append(
                    f"{len(pids)} process(es) named {LEFTOVER_NAME} survived grading"
                )
                for pid in pids:  # clean up what we found (our own test's processes)
                    with contextlib.suppress(OSError):
                        os.kill(pid, signal.SIGKILL)
        elif check == "no_host_report":
            problems_found += _kept_report_issues(result)
        elif check == "no_escape_marker":
            found = _escape_markers()
            if found:
                problems_found.append(f"files written outside the sandbox: {found}")
                for p in found:
                    with contextlib.suppress(OSError):
                        os.unlink(p)
        elif check == "canary":
            bad = _canary_intact()
            if bad:
                problems_found.append(bad)
        elif check == "fork_refused":
            if "fork refused: EAGAIN" not in str(result.get("stdout", "")):
                problems_found.append("no fork was refused with EAGAIN")
        elif check == "stdout_capped":
            if len(result.get("stdout", "")) > (16 << 10) + 100:
                problems_found.append(f"stdout not capped: {len(result['stdout'])} characters")
        elif check == "no_reference_text":
            if "def reference" in blob or "def generate" in blob:
                problems_found.append("the reference's source appears in the result")
        elif check == "no_shadow_text":
            leaked = [
                ln
                for ln in ctx.shadow_lines
                if ln and ln.split(":")[0] + ":" in blob and ln[:20] in blob
            ]
            if leaked:
                problems_found.append(f"{len(leaked)} line(s) of /etc/shadow appear in the result")
        elif check == "worker_alive":
            pass  # reaching this line in the grading process is the check
        elif check == "honest_after":
            pass  # grade_entry grades the honest base before and after the entry
        else:
            raise ValueError(f"unknown check {check}")
    return problems_found


# -- matching -----------------------------------------------------------------------------
def matches(expected: str, verdict: str, benchmark: list[dict[str, Any]] | None = None) -> bool:
    timed = all(float(b.get("sol_pct") or 0) <= TRUTHFUL_SOL_PCT for b in benchmark or [])
    if expected == "not_accepted":
        return verdict != "accepted"
    if expected == "accepted_truthful":
        return verdict == "accepted"
    if expected == "accepted_timed":
        return verdict == "accepted" and timed
    if expected == "timed_honest":  # the comparison with the honest base: grade_entry
        return verdict == "accepted"
    if expected == "truthful":
        return verdict != "accepted" or timed
    return verdict in expected.split("|")


def cut_problem(problem: Any, entry: Entry, device: str) -> Any:
    """The entry's limit overrides; on the CPU also only a few small interpreter cases."""
    if entry.limits:
        problem = dataclasses.replace(
            problem, limits=dataclasses.replace(problem.limits, **entry.limits)
        )
    if device != "cpu":
        return problem
    names = entry.cases or DEFAULT_CPU_CASES.get(entry.problem)
    interp = [c for c in problem.tests if c.interpreter]
    if names:
        by_name = {c.name: c for c in problem.tests}
        tests = tuple(by_name[n] for n in names)
    else:
        tests = tuple(interp[:2])
    return dataclasses.replace(problem, tests=tests)


def context() -> Context:
    secret = os.environ.get(SECRET_NAME) or f"kd-canary-{secrets.token_hex(8)}"
    os.environ[SECRET_NAME] = secret  # the worker's environment now holds a secret to protect
    shadow: list[str] = []
    try:
        with open("/etc/shadow") as f:
            shadow = [ln.strip() for ln in f if ln.strip()]
    except OSError:
        pass
    return Context(secret, shadow)


_POOL: Any = None


def _pool(device: str) -> Any:
    """On a GPU, runners come from a warm pool, as in the worker (and ~6 s faster each)."""
    global _POOL
    if device != "cuda" or os.environ.get("KERNELDOJO_ADV_POOL", "1") == "0":
        return None
    if _POOL is None:
        from judge.sandbox.runner_client import RunnerPool

        _POOL = RunnerPool("cuda")
    return _POOL


@contextlib.contextmanager
def _environ(env: dict[str, str]) -> Iterator[None]:
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def grade_entry(entry: Entry, device: str, ctx: Context | None = None) -> dict[str, Any]:
    """Grade one entry; a table row (submission, class, language, expected, got, ok, note)."""
    from judge import grader
    from judge.problem import loader

    ctx = ctx or context()
    expected = entry.expected(device)
    if "canary" in entry.checks:
        _prepare_canary()
    problem = cut_problem(loader.resolve(entry.problem), entry, device)
    source = entry.source()
    before: list[float] = []
    if "honest_after" in entry.checks and device != "cpu":
        before = _honest_medians(entry, device)  # graded before this entry, if not yet
    t0 = time.monotonic()
    with _environ({**entry.env, **(entry.gpu_env if device == "cuda" else {})}):
        res = grader.grade(
            problem,
            source,
            entry.language,
            device=device,
            mode=entry.mode,
            pool=None if entry.env else _pool(device),  # the pool's runners have the default
            static_policy=entry.static_policy,
            sanitize=False,  # the verdict is what is checked; a sanitizer run would only cost time
        ).to_dict()
    seconds = time.monotonic() - t0
    if _POOL is not None:
        _POOL.reap()  # the retired runner is gone before the checks look for leftovers
    verdict = str(res.get("verdict"))
    issues = run_checks(entry, res, ctx)
    bench = list(res.get("benchmark") or [])
    ok = expected is not None and matches(expected, verdict, bench) and not issues
    if ok and verdict != "not_run" and entry.message not in str(res.get("message", "")):
        ok, issues = False, [f"message lacks {entry.message!r}"]
    honest_ms: list[float] = []
    if ok and before:  # the worker grades and times the next submission as before
        _HONEST.pop((str(entry.base), entry.problem, device))
        honest_ms = _honest_medians(entry, device)
        for b, a in zip(before, honest_ms, strict=True):
            if abs(a - b) > max(0.01 * b, 0.002):
                ok, issues = False, [f"honest sample after it: {a:.4f} ms, before {b:.4f} ms"]
    if ok and expected == "timed_honest" and entry.base:
        honest_ms = _honest_medians(entry, device)
        ok, why = timed_like(bench, honest_ms)
        issues += [why] if why else []
    hole = entry.hole(device) if entry.hole else None
    note = entry.note
    if issues:
        note = "; ".join(issues) + " | " + note
    if not ok and hole:
        note = f"KNOWN HOLE: {hole} | {note}"
    elif ok and hole:
        note = f"(known hole not triggered here: {hole}) | {note}"
    if verdict == "internal_error":
        note = f"internal_error ({str(res.get('message'))[:160]}) | {note}"
    if "canary" in entry.checks:
        with contextlib.suppress(OSError):
            os.unlink(CANARY)
    return {
        "submission": entry.path,
        "problem": entry.problem,
        "class": entry.threat,
        "language": entry.language,
        "expected": expected,
        "got": verdict + (" +issues" if issues else ""),
        "ok": ok,
        "known_hole": bool(hole) and not ok,
        "note": note,
        "seconds": round(seconds, 1),
        "message": str(res.get("message", ""))[:300],
        "sol_pct": [b.get("sol_pct") for b in bench],
        "median_ms": [b.get("median_ms") for b in bench],
        "honest_ms": honest_ms,
        "referee_calls": [b.get("referee_calls") for b in bench],
    }


_HONEST: dict[tuple[str, str, str], list[float]] = {}
# How far below the honest kernel's median a forged timer may bring the reported one.
FORGED_SHARE, FORGED_MS = 0.02, 0.005


def _honest_medians(entry: Entry, device: str) -> list[float]:
    """The benchmark medians of the entry's honest base sample, graded once per run."""
    from judge import grader
    from judge.problem import loader

    assert entry.base is not None
    key = (entry.base, entry.problem, device)
    if key not in _HONEST:
        problem = cut_problem(loader.resolve(entry.problem), entry, device)
        res = grader.grade(
            problem,
            (REPO / entry.base).read_text(),
            entry.language,
            device=device,
            mode="submit",
            pool=_pool(device),
        )
        _HONEST[key] = [b.median_ms for b in res.benchmark]
    return _HONEST[key]


def timed_like(bench: list[dict[str, Any]], honest_ms: list[float]) -> tuple[bool, str]:
    """Whether no benchmark median is more than 2% (or 5 us) below the honest one."""
    if len(bench) != len(honest_ms):
        return False, f"{len(bench)} benchmark results, {len(honest_ms)} honest ones"
    for b, h in zip(bench, honest_ms, strict=True):
        got = float(b.get("median_ms") or 0)
        if got < h - max(FORGED_SHARE * h, FORGED_MS):
            return False, f"{b.get('name')}: {got:.4f} ms reported, honest {h:.4f} ms"
    return True, ""


def entries_for(device: str) -> list[Entry]:
    return [e for e in CATALOG if e.expected(device) is not None]


def run_catalog(
    device: str,
    only: Callable[[Entry], bool] | None = None,
    on_row: Callable[[dict[str, Any]], None] | None = None,
) -> tuple[list[dict[str, Any]], int]:
    """Grade every entry with an expectation on ``device``: (rows, number of failures).

    Known holes that show up are reported in the rows but not counted as failures."""
    ctx = context()
    # KERNELDOJO_ADV_ONLY=replay,forgery/fake: only entries whose path contains one of these
    # (to split a GPU run into several commands under a per-command time limit).
    subset = [x for x in os.environ.get("KERNELDOJO_ADV_ONLY", "").split(",") if x]
    rows: list[dict[str, Any]] = []
    failures = 0
    for entry in entries_for(device):
        if only is not None and not only(entry):
            continue
        if subset and not any(x in entry.path for x in subset):
            continue
        try:
            row = grade_entry(entry, device, ctx)
        except Exception as e:  # a crash of the judge on a hostile submission is a failure
            row = {
                "submission": entry.path,
                "problem": entry.problem,
                "class": entry.threat,
                "language": entry.language,
                "expected": entry.expected(device),
                "got": f"crash: {type(e).__name__}: {e}",
                "ok": False,
                "known_hole": False,
                "note": entry.note,
            }
        rows.append(row)
        if on_row is not None:
            on_row(row)
        if not row["ok"] and not row["known_hole"]:
            failures += 1
    return rows, failures


if __name__ == "__main__":  # python tests/adversarial/catalog.py [cpu|cuda] [substring]
    import sys

    sys.path.insert(0, str(REPO))
    dev = sys.argv[1] if len(sys.argv) > 1 else "cpu"
    sub = sys.argv[2] if len(sys.argv) > 2 else ""

    def show(r: dict[str, Any]) -> None:
        flag = "ok  " if r["ok"] else ("HOLE" if r["known_hole"] else "FAIL")
        print(
            f"{flag} {r['submission']:40} expected={r['expected']:35} got={r['got']:22} "
            f"{r.get('seconds', '')}s  {r['note'][:200]}",
            flush=True,
        )
        if not r["ok"]:
            print("      message:", r.get("message", "")[:300].replace("\n", " "), flush=True)

    rows, failed = run_catalog(dev, only=lambda e: sub in e.path, on_row=show)
    print(f"{failed} failure(s)")
