"""The runner protocol's contract (messages.py) against both ends that speak it.

The sources of the runner and of the referee's parts are read (ast): every op either side
writes or handles, and every field it reads from a message, must be declared in messages.py;
every declared op must be written by one side and handled by the other. A message of each
type goes through JSON as the pipes carry it and comes back with its fields.
"""

import ast
import json
import subprocess
import sys
import typing
from pathlib import Path

import pytest

from judge.sandbox import messages

JUDGE = Path(__file__).resolve().parents[3] / "judge"
RUNNER = JUDGE / "sandbox" / "runner.py"
REFEREE = [
    JUDGE / name
    for name in (
        "sandbox/runner_client.py",
        "grader.py",
        "phases.py",
        "sandbox/channel.py",
        "cases.py",
        "timing/calibration.py",
        "timing/bench.py",
        "profile/toolrun.py",
        "ranks/grading.py",
        "ranks/schedule.py",
    )
]


def op_of(cls: type) -> str:
    (op,) = typing.get_args(typing.get_type_hints(cls)["op"])
    return str(op)


REQUEST_OPS = {op_of(c) for c in messages.REQUESTS}
REPLY_OPS = {op_of(c) for c in messages.REPLIES}


def tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(), str(path))


def ops_written(path: Path) -> set[str]:
    """``op="x"`` in a call (a message's constructor) and ``{"op": "x", ...}`` literals."""
    found = set()
    for node in ast.walk(tree(path)):
        if isinstance(node, ast.Call):
            for kw in node.keywords:
                if kw.arg == "op" and isinstance(kw.value, ast.Constant):
                    found.add(kw.value.value)
        elif isinstance(node, ast.Dict):
            for k, v in zip(node.keys, node.values, strict=True):
                if isinstance(k, ast.Constant) and k.value == "op" and isinstance(v, ast.Constant):
                    found.add(v.value)
    return found


def is_op(node: ast.expr) -> bool:
    """``x["op"]`` or ``x.get("op")``."""
    if isinstance(node, ast.Subscript):
        return isinstance(node.slice, ast.Constant) and node.slice.value == "op"
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "get"
        and bool(node.args)
        and isinstance(node.args[0], ast.Constant)
        and node.args[0].value == "op"
    )


def ops_compared(path: Path) -> set[str]:
    """The ops a side tests a message for (``msg["op"] == "x"``, ``msg.get("op") != "x"``)."""
    found = set()
    for node in ast.walk(tree(path)):
        if isinstance(node, ast.Compare) and is_op(node.left):
            for c in node.comparators:
                if isinstance(c, ast.Constant):
                    found.add(c.value)
    return found


def fields_read(path: Path, names: set[str]) -> set[str]:
    """Keys read from a message held in a variable named in ``names``: ``m["k"]``,
    ``m.get("k")``."""
    found = set()
    for node in ast.walk(tree(path)):
        if (
            isinstance(node, ast.Subscript)
            and isinstance(node.ctx, ast.Load)
            and isinstance(node.value, ast.Name)
            and node.value.id in names
            and isinstance(node.slice, ast.Constant)
        ):
            found.add(node.slice.value)
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "get"
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id in names
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            found.add(node.args[0].value)
    return found


def test_each_op_has_one_type_and_the_unions_name_them_all() -> None:
    assert len(REQUEST_OPS) == len(messages.REQUESTS)
    assert len(REPLY_OPS) == len(messages.REPLIES)
    assert set(typing.get_args(messages.Request)) == set(messages.REQUESTS)
    assert set(typing.get_args(messages.Reply)) == set(messages.REPLIES)


def test_the_runner_writes_only_declared_replies_and_every_one_of_them() -> None:
    assert ops_written(RUNNER) == REPLY_OPS


def test_the_runner_handles_every_request_and_nothing_else() -> None:
    # "init" is read before the loop (a pooled runner waits for it), the others in the loop
    assert ops_compared(RUNNER) == REQUEST_OPS


def test_the_referee_writes_every_request_and_reads_only_declared_replies() -> None:
    written = set().union(*(ops_written(p) for p in REFEREE))
    compared = set().union(*(ops_compared(p) for p in REFEREE))
    assert written == REQUEST_OPS
    assert compared <= REPLY_OPS
    # the two replies the client waits for by name (RunnerClient._expect)
    assert {"imported", "ready"} <= REPLY_OPS


def test_the_fields_each_side_reads_are_declared() -> None:
    received = set(messages.Received.__annotations__)
    reply_fields = set().union(*(c.__annotations__ for c in messages.REPLIES))
    assert received == reply_fields  # the referee's view of a reply covers every reply
    for path in REFEREE:
        assert fields_read(path, {"msg", "reply", "done"}) <= received, path.name
    request_fields = set().union(*(c.__annotations__ for c in messages.REQUESTS))
    request_fields |= set(messages.BindArg.__annotations__)
    assert fields_read(RUNNER, {"msg", "a"}) <= request_fields


SAMPLES: list[dict[str, typing.Any]] = [
    messages.Init(op="init"),
    messages.Gate(op="gate", desc={"handle": [1, 2], "size": 64}),
    messages.Ping(op="ping", gate=3),
    messages.Load(
        op="load",
        language="triton",
        path="solution.py",
        argtypes=["ptr", "int"],
        roles=["input", "param"],
        forbid_library=True,
        gpu_budget_mb=256,
        source_cache=None,
    ),
    messages.Precompile(op="precompile", cases=[{"args": [], "tune": "first"}]),
    messages.Bind(
        op="bind",
        case="t1",
        args=[
            messages.BindArg(kind="tensor", desc={"n": 4}),
            messages.BindArg(kind="int", value=7),
        ],
        private=False,
    ),
    messages.Bind(
        op="bind",
        case="t2",
        args=[messages.BindArg(kind="tensor", desc={"n": 4})],
        rank=1,
        world=2,
        peers=[{"x": {"n": 4}}, {"x": {"n": 4}}],
    ),
    messages.Unbind(op="unbind", case="t1"),
    messages.Release(op="release"),
    messages.Call(op="call", case="b1", timed=True, tune="full", nvtx=False, gate=9),
    messages.Exit(op="exit"),
    messages.Imported(op="imported"),
    messages.Ready(op="ready", pid=12, init_s=1.25),
    messages.Pong(op="pong", ms=None),
    messages.Gated(op="gated"),
    messages.Loaded(op="loaded"),
    messages.Precompiled(
        op="precompiled",
        kernels=3,
        skipped=False,
        failed=0,
        pending=1,
        cases_cut_short=0,
        seconds=1.5,
        host_ms=40,
        wait_ms=900,
        threads=8,
        slowest_ms=[(30, 2)],
    ),
    messages.Progress(op="progress", kind="tune", done=2, total=5),
    messages.Bound(op="bound", allocations=[[140000, 4096], None]),
    messages.Unbound(op="unbound"),
    messages.Launched(op="launched"),
    messages.Done(
        op="done", warnings=["w"], findings=[{"kind": "oob"}], notes=["line 3: overflow"]
    ),
    messages.Done(op="done", ms=0.13, ms_sync=0.15, sm_ghz=1.98, sm_ghz_range=(1.9, 1.98)),
    messages.Arrived(op="barrier", count=1),
    messages.Error(op="error", verdict="runtime_error", message="boom"),
]


def test_the_samples_fill_every_field_of_every_type() -> None:
    by_op = {op_of(c): c for c in (*messages.REQUESTS, *messages.REPLIES)}
    filled: dict[str, set[str]] = {}
    for s in SAMPLES:
        filled.setdefault(s["op"], set()).update(s)
        assert by_op[s["op"]].__required_keys__ <= set(s)
    assert {op: set(by_op[op].__annotations__) for op in by_op} == filled


def plain(v: typing.Any) -> typing.Any:
    """What JSON gives back for a value: tuples as lists."""
    if isinstance(v, tuple | list):
        return [plain(x) for x in v]
    if isinstance(v, dict):
        return {k: plain(x) for k, x in v.items()}
    return v


@pytest.mark.parametrize("msg", SAMPLES, ids=lambda m: str(m["op"]))
def test_a_message_goes_through_the_pipe_with_its_fields(msg: dict[str, typing.Any]) -> None:
    line = json.dumps(msg) + "\n"  # as RunnerClient.send and Runner.send write it
    assert line.count("\n") == 1  # one message, one line
    assert json.loads(line) == plain(msg)


def test_the_contract_imports_nothing_heavy() -> None:
    code = (
        "import sys; import judge.sandbox.messages; "
        "print(sorted({'torch', 'triton', 'numpy'} & set(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
