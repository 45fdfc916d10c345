"""The static policy's library vocabulary comes from the language registry: a language's module
declares its libraries' values, functions, host views and denied paths (languages/base.py), and
policy.py names none of them."""

from __future__ import annotations

import pytest

from judge.languages import policy
from tests import fake_language

DTYPE = "import torch\nimport fakelib\n\ndef solve(x):\n    return torch.zeros(3, dtype=fakelib.float32)\n"
HOST = "import fakelib\n\ndef solve(x):\n    y = fakelib.asarray(x)\n    return y.to_host()\n"
DENIED = "import fakelib\n\ndef solve(x):\n    fakelib.backdoor.open()\n"


def _refused(source: str) -> str | None:
    v = policy.check_python(source)
    return None if v is None else v.reason


def test_a_languages_vocabulary_reaches_the_policy(monkeypatch: pytest.MonkeyPatch) -> None:
    escape = _refused(DTYPE)  # an unknown library's member, passed to a function: refused
    assert escape is not None and "not stored, returned or passed to functions" in escape
    assert _refused(HOST) is None and _refused(DENIED) is None

    monkeypatch.setattr(fake_language.Fake, "value_modules", ("fakelib",))
    monkeypatch.setattr(fake_language.Fake, "host_attrs", frozenset({"to_host"}))
    monkeypatch.setattr(fake_language.Fake, "denied_paths", {"fakelib.backdoor": "no backdoors"})
    fake_language.register(monkeypatch)
    assert _refused(DTYPE) is None  # fakelib.float32 is now a dtype, a plain value
    host = _refused(HOST)
    assert host is not None and "host read or compute on tensor data" in host
    assert _refused(DENIED) == "`fakelib.backdoor.open` is not allowed: no backdoors."

    monkeypatch.undo()  # the language leaves the registry: its vocabulary goes with it
    assert _refused(DTYPE) == escape
    assert _refused(HOST) is None and _refused(DENIED) is None


def test_the_registered_languages_vocabulary() -> None:
    # What the Triton, Numba and Pallas modules declare, as the policy applies it to any file.
    ok = [
        "import triton.language as tl\nimport torch\n\ndef solve(x):\n    return torch.zeros(3, dtype=tl.float16)\n",
        "from numba import cuda\n\ndef f(a):\n    return max(cuda.threadIdx.x, 1)\n",
        "import jax.numpy as jnp\n\ndef f(a):\n    return jnp.add(a, 1)\n",
    ]
    for source in ok:
        assert policy.check_python(source) is None, source
    refused = policy.check_python("import triton.backends\n\ndef solve(x):\n    pass\n")
    assert refused is not None and refused.reason.endswith("it compiles and loads host C code.")
    host = policy.check_python("def solve(a):\n    return a.copy_to_host()\n")
    assert host is not None and "host read or compute" in host.reason
