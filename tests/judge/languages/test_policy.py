"""The static policy for Triton submissions (policy.py): what public kernels do passes, what
patches or inspects the harness is refused with its line and a reason naming it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from judge import grader
from judge.languages import policy
from judge.languages.imports import check_imports
from judge.languages.python import PythonLanguage
from judge.problem import loader
from judge.verdicts import Verdict

REPO = Path(__file__).resolve().parents[3]

# -- accepted: the idioms of public kernels, written for these tests --------------------------
TUTORIAL = """
import os
from typing import Optional

import torch
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()
LOG2E: tl.constexpr = 1.4426950408889634
INTERPRET = os.environ.get("TRITON_INTERPRET", "0") == "1" or "TRITON_INTERPRET" in os.environ
DEBUG = os.getenv("KERNEL_DEBUG")


def is_cuda() -> bool:
    return triton.runtime.driver.active.get_current_target().backend == "cuda"


def get_configs():
    return [
        triton.Config({"BLOCK_M": bm, "BLOCK_N": 64}, num_stages=s, num_warps=w)
        for bm in (64, 128) for s in (3, 4) for w in (4, 8)
    ]


def prune(configs, named_args, **kwargs):
    return [c for c in configs if c.kwargs["BLOCK_M"] <= named_args["m"] * 2] or configs[:1]


def set_block(nargs):
    nargs["desc"].block_shape = [nargs["BLOCK_M"], nargs["BLOCK_N"]]


@triton.autotune(configs=get_configs(), key=["m", "n"], prune_configs_by={"early_config_prune": prune})
@triton.heuristics({"EVEN_N": lambda args: args["n"] % args["BLOCK_N"] == 0})
@triton.jit(do_not_specialize=["m"])
def kernel(x_ptr, y_ptr, m, n, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, EVEN_N: tl.constexpr,
           DTYPE: tl.constexpr = tl.float32):
    pid = tl.program_id(0)
    desc = tl.make_tensor_descriptor(x_ptr, shape=[m, n], strides=[n, 1], block_shape=[BLOCK_M, BLOCK_N])
    x = desc.load([pid * BLOCK_M, 0]).to(tl.float32)
    y = tl.math.exp2(x * LOG2E)
    tl.store(y_ptr + tl.arange(0, BLOCK_N), y.to(DTYPE)[0, :])


def alloc_fn(size: int, alignment: int, stream: Optional[int]):
    return torch.empty(size, device="cuda", dtype=torch.int8)


triton.set_allocator(alloc_fn)


def solve(x: torch.Tensor, y: torch.Tensor, m: int, n: int):
    props = torch.cuda.get_device_properties(x.device) if x.is_cuda else None
    major, minor = torch.cuda.get_device_capability() if x.is_cuda else (0, 0)
    sms = props.multi_processor_count if props is not None else 4
    block = triton.next_power_of_2(n)
    scratch = torch.empty((m, block), dtype=torch.float32, device=x.device)
    flat = scratch.view(-1)
    assert flat.stride(0) == 1 and x.contiguous().is_contiguous()
    grid = lambda meta: (triton.cdiv(m, meta["BLOCK_M"]),)
    kernel[grid](x, y, m, n, DTYPE=tl.float16 if y.dtype == torch.float16 else tl.float32)


if __name__ == "__main__":
    import numpy as np
    x = torch.randn(128, 128, device=DEVICE)
    ms = triton.testing.do_bench(lambda: solve(x, x, 128, 128))
    torch.testing.assert_close(x, x)
    np.testing.assert_allclose(x.cpu().numpy(), x.cpu().numpy())
    print(f"{ms:.3f} ms", torch.__version__)
"""

LIGER = """
import functools
import math
import operator
from dataclasses import dataclass, field

import numpy as np
import torch
import triton
import triton.language as tl

MAX_FUSED_SIZE = 65536
TORCH_TO_TL = {torch.float32: tl.float32, torch.float16: tl.float16, torch.bfloat16: tl.bfloat16}


def calculate_settings(n):
    block_size = triton.next_power_of_2(n)
    if block_size > MAX_FUSED_SIZE:
        raise RuntimeError(f"Cannot launch Triton kernel since n = {n} exceeds {MAX_FUSED_SIZE}.")
    num_warps = 4
    if block_size >= 32768:
        num_warps = 32 if not torch.version.hip else 16
    elif block_size >= 8192:
        num_warps = 16
    elif block_size >= 2048:
        num_warps = 8
    return block_size, num_warps


def ensure_contiguous(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        args = [a.contiguous() if isinstance(a, torch.Tensor) else a for a in args]
        return fn(*args, **kwargs)
    return wrapper


@dataclass
class Settings:
    block: int
    warps: int = 4
    dtype: torch.dtype = torch.float32
    history: list = field(default_factory=list)

    def __post_init__(self):
        self.history.append(self.block)


class Launcher:
    _cache = {}

    def __init__(self, dtype=torch.float32):
        super().__init__()
        self.dtype = dtype
        self.eps = 1e-6
        self.scale = float(np.pi) / math.sqrt(2.0)
        self.tiny = np.finfo(np.float32).tiny

    def __call__(self, x, y, rows, cols):
        key = (rows, cols)
        if key not in self._cache:
            self._cache[key] = calculate_settings(cols)
        return self._cache[key]

    def __repr__(self):
        return f"{type(self).__name__}({self.dtype})"


@functools.lru_cache(maxsize=None)
def _sms(index: int) -> int:
    return torch.cuda.get_device_properties(index).multi_processor_count


@triton.jit
def row_kernel(x_ptr, y_ptr, stride, cols, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * stride + offs, mask=offs < cols, other=-float("inf"))
    tl.store(y_ptr + row * stride + offs, x - tl.max(x, axis=0), mask=offs < cols)


_launcher = Launcher(torch.float16)
numel = functools.reduce(operator.mul, (2, 3, 4), 1)


@ensure_contiguous
def solve(x, y, rows, cols):
    block, warps = _launcher(x, y, rows, cols)
    settings = Settings(block, warps)
    with torch.cuda.device(x.device):
        row_kernel[(rows,)](x, y, x.stride(0), cols, BLOCK=block, num_warps=settings.warps)
    _ = functools.partial(row_kernel, BLOCK=block)
"""

ACCEPTED = {"tutorial": TUTORIAL, "liger": LIGER}

ALLOWED_LINES = [
    "class A:\n    def __init__(self):\n        self.x = 1\n        self.x += 1\n        del self.x",
    "import torch\nclass E(torch.cuda.Event):\n    def elapsed_time(self, end):\n        return 1.0",
    "import sys\nprint('hi', file=sys.stderr)\nsys.stdout.flush()\nbig = sys.maxsize",
    "import sys\nif sys.version_info >= (3, 11):\n    sys.exit(0)",
    "import os\np = os.path.join(os.path.dirname('a/b'), 'c')\nenv = os.environ\nv = env['X']",
    "def solve(input, output, n):\n    dir = 1\n    type = 2\n    vars = input\n    return dir + type",
    "import triton.language as tl\nBLOCK = getattr(tl, 'float16')\nok = hasattr(tl, 'make_tensor_descriptor')",
    "import torch\ndef f(x):\n    return type(x).__name__, isinstance(x, (torch.Tensor, int))",
    "import torch\nif torch.version.hip or torch.version.cuda:\n    pass",
    "from __future__ import annotations\n__all__ = ['solve']\nprint(__name__)",
    "import math\nscale = math.log2(math.e)\nf = math.sqrt\nxs = [math.pi, -math.inf]",
    "import torch\ndef f(x):\n    try:\n        pass\n    except torch.cuda.OutOfMemoryError:\n        pass",
]


@pytest.mark.parametrize("name", sorted(ACCEPTED))
def test_public_kernel_idioms_pass(name: str) -> None:
    assert policy.find_violations(ACCEPTED[name]) == []


@pytest.mark.parametrize("source", ALLOWED_LINES)
def test_harmless_uses_pass(source: str) -> None:
    assert policy.find_violations(source) == []


# -- the samples of every problem --------------------------------------------------------------
def _declared(path: Path) -> str:
    for line in path.read_text().splitlines()[:10]:
        s = line.lstrip("#/ ").strip()
        if s.startswith("expect:"):
            return s.removeprefix("expect:").strip().split()[0]
    return path.stem


def _samples() -> list[Path]:
    files = [*REPO.glob("problems/*/solutions/accepted/*.py")]
    files += [
        p for p in REPO.glob("problems/*/solutions/rejected/*.py") if _declared(p) != "rejected"
    ]
    files += [
        *REPO.glob("problems/*/starter/solution.py"),
        *REPO.glob("tests/adversarial/honest/*.py"),
    ]
    return sorted(files)


@pytest.mark.parametrize("path", _samples(), ids=lambda p: str(p.relative_to(REPO)))
def test_every_sample_and_starter_passes(path: Path) -> None:
    """Under the rule its language applies: the framework track (PyTorch) has no library rule,
    so its torch.compile samples pass."""
    from judge import languages

    source = path.read_text()
    lang = languages.infer(path.name, source)
    framework = lang is not None and lang.track == "framework"
    assert policy.check_python(source, forbid_library_compute=not framework) is None
    assert isinstance(lang, PythonLanguage)  # and it imports only what its language allows
    assert check_imports(source, lang.packages, lang.label) is None


def _editorial_blocks() -> list[object]:
    blocks: list[object] = []
    for md in sorted(REPO.glob("problems/*/editorial.md")):
        for i, m in enumerate(re.finditer(r"```python\n(.*?)```", md.read_text(), re.S)):
            blocks.append(pytest.param(m.group(1), id=f"{md.parent.name}#{i}"))
    return blocks


@pytest.mark.parametrize("code", _editorial_blocks())
def test_editorial_code_passes(code: str) -> None:
    assert policy.check_python(code) is None


def test_samples_are_found() -> None:
    assert len(_samples()) > 20 and _editorial_blocks()


# -- refused: one snippet per rule, and alias tricks ----------------------------------------
# (source, line, text the reason must contain)
REFUSED = [
    # patching what is reachable from an imported module
    (
        "import torch\n\ntorch.cuda.Event.elapsed_time = lambda s, e: 0.0",
        3,
        "torch.cuda.Event.elapsed_time",
    ),
    ("import triton\ntriton.language.load = print", 2, "triton.language.load"),
    ("import torch.cuda as tc\ntc.synchronize = lambda: None", 2, "tc.synchronize"),
    ("from torch.cuda import Event\nEvent.elapsed_time = None", 2, "Event.elapsed_time"),
    ("import torch\nsetattr(torch, 'add', print)", 2, "setattr(torch, 'add', print)"),
    ("import torch\ndelattr(torch.cuda, 'synchronize')", 2, "delattr"),
    ("import torch\nt = torch\nt.cuda.X = 1", 3, "t.cuda.X"),
    ("import torch\ntorch.backends.cuda.matmul.allow_tf32 = True", 2, "allow_tf32"),
    ("import math\nmath.pi += 1", 2, "math.pi"),
    ("import torch\ndel torch.cuda.synchronize", 2, "torch.cuda.synchronize"),
    ("import torch\nx = torch.empty(4)\nx.foo = 1", 3, "x.foo"),
    (
        "import copy, torch\nE = copy.copy(torch.cuda.Event)\nE.elapsed_time = 0",
        2,
        "torch.cuda.Event",
    ),
    ("import torch\ntype(torch.cuda.Event()).elapsed_time = 0", 2, "elapsed_time"),
    ("import torch\nclass P:\n    m = torch.cuda", 3, "torch.cuda"),
    # dunder access
    ("x = (1).__class__.__subclasses__()", 1, "__class__"),
    ("def f():\n    pass\ng = f.__globals__", 3, "__globals__"),
    ("import torch\nd = torch.__dict__", 2, "__dict__"),
    ("b = __builtins__", 1, "__builtins__"),
    ("m = __import__\nm('os')", 1, "__import__"),
    ("x = getattr(object, '__subclasses__')", 1, "__subclasses__"),
    (
        "class A:\n    def f(self):\n        return self.__getattribute__('x')",
        3,
        "__getattribute__",
    ),
    # dynamic lookups
    ("import torch\nf = getattr(torch, 'ad' + 'd')", 2, "getattr(torch, 'ad' + 'd')"),
    ("import functools, torch\nx = functools.reduce(getattr, ['cuda'], torch)", 2, "getattr"),
    (
        "import operator, torch\nf = operator.attrgetter('cuda.Event')(torch)",
        2,
        "operator.attrgetter",
    ),
    ("g = vars()", 1, "vars"),
    ("g = globals()['x']", 1, "globals"),
    ("import torch\nnames = dir(torch)", 2, "dir"),
    ("eval('1 + 1')", 1, "eval"),
    ("exec('x = 1')", 1, "exec"),
    ("c = compile('1', 'f', 'eval')", 1, "compile"),
    ("f = open('/etc/passwd')", 1, "open"),
    ("breakpoint()", 1, "breakpoint"),
    ("t = type\nx = t(1)", 1, "type"),
    ("import torch\nb = torch.cuda.Event.mro()", 2, ".mro"),
    # denied modules
    ("import ctypes", 1, "ctypes"),
    ("import importlib\nm = importlib.import_module('os')", 1, "importlib"),
    ("from gc import get_objects", 1, "gc.get_objects"),
    ("import inspect", 1, "inspect"),
    ("import subprocess", 1, "subprocess"),
    ("import multiprocessing as mp", 1, "multiprocessing"),
    ("from threading import Thread", 1, "threading.Thread"),
    ("import signal", 1, "signal"),
    ("import socket", 1, "socket"),
    ("import pickle", 1, "pickle"),
    ("import marshal", 1, "marshal"),
    ("import builtins", 1, "builtins"),
    ("from judge.sandbox import rules", 1, "judge.sandbox.rules"),
    ("from worker import tasks", 1, "worker.tasks"),
    ("import app.core.config", 1, "app.core.config"),
    ("import __main__", 1, "__main__"),
    ("from os import *", 1, "from os import *"),
    # sys
    ("import sys\nm = sys.modules['torch']", 2, "sys.modules"),
    ("import sys\nf = sys._getframe(1)", 2, "sys._getframe"),
    ("import sys\nsys.settrace(None)", 2, "sys.settrace"),
    ("from sys import setprofile", 1, "sys.setprofile"),
    ("import sys\nfd = sys.argv[1]", 2, "sys.argv"),
    # os
    ("import os\nos.system('id')", 2, "os.system"),
    ("import os\nos.write(1, b'x')", 2, "os.write"),
    ("import os\nos.environ['X'] = '1'", 2, "os.environ['X']"),
    ("import os\nos.environ.update(X='1')", 2, "os.environ.update"),
    ("import os\nok = os.path.exists('/etc')", 2, "os.path.exists"),
    ("import os as o\ne = o.fork()", 2, "os.fork"),
    ("import os\nos._exit(0)", 2, "os._exit"),
    # torch internals and operator registration
    ("from torch.utils._python_dispatch import _disable_current_modes", 1, "_python_dispatch"),
    ("import torch\nx = torch._C._get_tracing_state()", 2, "torch._C"),
    ("import torch\nlib = torch.library.Library('aten', 'IMPL')", 2, "torch.library"),
    ("import torch\nf = torch.ops.aten.add", 2, "torch.ops"),
    ("import torch\nf = getattr(torch.utils, '_python_dispatch')", 2, "_python_dispatch"),
    ("import torch\nm = torch.compile(print)", 2, "torch.compile"),
    ("import torch\nx = torch.load('f.pt')", 2, "torch.load"),
    ("from torch.overrides import TorchFunctionMode", 1, "torch.overrides"),
    # host views of tensor data
    ("def solve(a, b, c, n):\n    x = a.numpy()", 2, ".numpy"),
    ("def solve(a, b, c, n):\n    x = a.tolist()", 2, ".tolist"),
    (
        "from numba import cuda\ndef solve(a, b, c, n):\n"
        "    x = cuda.as_cuda_array(a).copy_to_host()",
        3,
        ".copy_to_host",
    ),
    ("import numpy as np\ndef solve(a, b, c, n):\n    np.add(a, b)", 3, "numpy.add"),
    ("import numpy as np\nx = np.asarray([1])", 2, "numpy.asarray"),
    ("from numpy import frombuffer", 1, "numpy.frombuffer"),
    ("import numpy\ny = numpy.array([1])", 2, "numpy.array"),
    ("import numpy as np\ny = np.float32([1, 2])", 2, "numpy.float32"),
    ("import torch\ny = torch.from_numpy(None)", 2, "torch.from_numpy"),
    # a library's objects passed out of sight
    ("import torch\ndef patch(m):\n    m.x = 1\npatch(torch.cuda.Event)", 4, "torch.cuda.Event"),
    ("import torch\nmods = [torch.cuda]", 2, "torch.cuda"),
    ("import os\ndef get():\n    return os", 3, "os"),
    ("import os\nfor m in (os,):\n    m.system('id')", 2, "os"),
    ("import torch, functools\ndef p(m): pass\nfunctools.partial(p, torch.cuda)", 3, "torch.cuda"),
    # relative imports
    ("from . import helper", 1, "from . import"),
]


@pytest.mark.parametrize("source,line,mention", REFUSED, ids=[r[2] for r in REFUSED])
def test_refused_with_line_and_reason(source: str, line: int, mention: str) -> None:
    v = policy.check_python(source)
    assert v is not None, source
    assert v.line == line, v
    assert mention in v.reason, v
    assert v.code == source.splitlines()[line - 1].strip()
    assert str(v).startswith(f"line {line}: ")


def test_aliases_do_not_escape() -> None:
    for source in (
        "import torch as T\nT.cuda.synchronize = None",
        "from torch import cuda\ncuda.Event.record = None",
        "import torch\nev = torch.cuda.Event\nev.elapsed_time = None",
        "import torch\nev = getattr(torch.cuda, 'Event')\nev.elapsed_time = None",
        "import torch\ndef f():\n    global g\n    g = torch.cuda\ng.synchronize = None",
        "import torch\nx = [1]\nx.append(torch.cuda.Event())\nx[0].record = None",
    ):
        assert policy.check_python(source) is not None, source


def test_shadowed_builtins_are_the_learners() -> None:
    assert policy.check_python("def f(open):\n    return open('x')") is None
    # ...but only in the scope that binds them
    v = policy.check_python("def f(open):\n    return 1\nopen('/etc/passwd')")
    assert v is not None and v.line == 3
    v = policy.check_python("def f(open=open):\n    return open('/etc/passwd')")
    assert v is not None and v.line == 1


def test_main_block_is_not_checked_but_its_else_is() -> None:
    assert policy.check_python('if __name__ == "__main__":\n    import ctypes') is None
    v = policy.check_python('if __name__ == "__main__":\n    pass\nelse:\n    import ctypes')
    assert v is not None and v.line == 4
    v = policy.check_python('if __name__ == "__main__" or True:\n    import ctypes')
    assert v is not None and v.line == 2


def test_library_compute_rules_follow_the_problem() -> None:
    src = "import numpy as np\ndef solve(a, b, c, n):\n    np.add(a.numpy(), b.numpy())"
    assert policy.check_python(src) is not None
    assert policy.check_python(src, forbid_library_compute=False) is None


def test_syntax_errors_are_left_to_the_caller() -> None:
    assert policy.check_python("def solve(:\n") is None


# The adversarial catalogue's patched timer (graded there with the policy off).
PATCHED_TIMER = (
    Path(__file__).resolve().parents[3] / "tests/adversarial/submissions/forgery/patch_timer.py"
).read_text()
PATCH_LINE = next(
    i for i, line in enumerate(PATCHED_TIMER.splitlines(), 1) if "elapsed_time =" in line
)


def test_the_referee_rejects_a_patched_timer_before_running_it() -> None:
    res = grader.grade(
        loader.resolve("vector-add"), PATCHED_TIMER, "triton", device="cpu", mode="run"
    )
    assert res.verdict == Verdict.REJECTED
    assert res.message.startswith(
        f"line {PATCH_LINE}: torch.cuda.Event.elapsed_time = lambda self, end: 0.0001"
    )
    assert "torch.cuda.Event.elapsed_time" in res.message.splitlines()[1]
    assert not res.cases  # nothing ran


def test_torch_compile_is_the_framework_tracks_not_the_kernel_tracks() -> None:
    """PyTorch submissions (no library rule) may use torch.compile; a kernel track refuses it
    with the library rule, and torch.jit stays refused everywhere (it loads code from files)."""
    src = "import torch\n\n@torch.compile\ndef add(a, b):\n    return a + b\n"
    v = policy.check_python(src)
    assert v is not None and "torch.compile" in v.reason and v.line == 3
    assert policy.check_python(src, forbid_library_compute=False) is None
    assert (
        policy.check_python(
            "import torch\nf = torch.compiler.disable", forbid_library_compute=False
        )
        is None
    )
    jit = policy.check_python(
        "import torch\nm = torch.jit.script(print)", forbid_library_compute=False
    )
    assert jit is not None and "torch.jit" in jit.reason
