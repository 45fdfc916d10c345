"""The runner protocol's messages: one TypedDict per op, in each direction.

The referee (grader.py and its parts) and the runner (runner.py) speak JSON lines over two
pipes (runner_client.py). Each message is a JSON object whose ``op`` names its kind; the types
here name every op and its fields, so that mypy checks what each side writes and what the
runner reads. A reply describes what an honest runner sends: the submission shares the
runner's process and can write anything on the pipe, so the referee reads replies as
``Received`` (every field ``object``) and validates each field it uses.

Imported by the runner before torch: this module imports nothing but ``typing``.
"""

from typing import Any, Literal, NotRequired, TypedDict

# -- referee -> runner ----------------------------------------------------------------------


class Init(TypedDict):
    """Create the device's context now (a pooled runner waits for it: runner_client.py)."""

    op: Literal["init"]


class Gate(TypedDict):
    """The referee's gate flags (gate.py), before any submission code exists."""

    op: Literal["gate"]
    desc: dict[str, Any]


class Ping(TypedDict):
    """An empty timed call through the gate: the referee's calibration (calibration.py)."""

    op: Literal["ping"]
    gate: NotRequired[int]  # the gate's call number, set by the channel's ``gated``


class Load(TypedDict):
    """Load the prepared submission (languages/)."""

    op: Literal["load"]
    language: str
    path: str
    argtypes: list[str]  # "ptr" or "int", one per argument of solve
    roles: list[str]
    forbid_library: bool
    gpu_budget_mb: int
    source_cache: str | None  # sourcecache.key of an earlier grading's kernels, or None


class Precompile(TypedDict):
    """Compile every case's kernels ahead (precompile.py): ``precompile.placeholder`` each."""

    op: Literal["precompile"]
    cases: list[dict[str, Any]]


class BindArg(TypedDict):
    """One argument of solve: an integer, or a shared buffer's descriptor (buffers.py)."""

    kind: Literal["int", "tensor"]
    value: NotRequired[int]
    desc: NotRequired[dict[str, Any]]


class Bind(TypedDict):
    """Map a case's buffers; ``private``: work on copies of its own (profile/instrument.py)."""

    op: Literal["bind"]
    case: str
    args: list[BindArg]
    private: NotRequired[bool]
    # A problem that spans GPUs (docs/multi-gpu.md): this rank, the ranks, and every rank's
    # tensor arguments by name (this rank's own included), for solve's ``comm`` (comm.py).
    rank: NotRequired[int]
    world: NotRequired[int]
    peers: NotRequired[list[dict[str, dict[str, Any]]]]


class Unbind(TypedDict):
    op: Literal["unbind"]
    case: str


class Call(TypedDict):
    """Call solve on a bound case, untimed (a test) or timed through the gate."""

    op: Literal["call"]
    case: str
    timed: bool
    tune: NotRequired[str]  # autotune.TUNE_FIRST or TUNE_FULL
    nvtx: NotRequired[bool]  # under Nsight Compute (profile/)
    gate: NotRequired[int]


class Release(TypedDict):
    """Go on past the barrier the runner waits at (``Arrived``; judge/ranks/schedule.py)."""

    op: Literal["release"]


class Exit(TypedDict):
    """Leave cleanly (a tool writes its report when the runner exits: profile/toolrun.py)."""

    op: Literal["exit"]


Request = Init | Gate | Ping | Load | Precompile | Bind | Unbind | Call | Release | Exit

# -- runner -> referee ----------------------------------------------------------------------


class Imported(TypedDict):
    """The slow imports are done (no GPU touched yet)."""

    op: Literal["imported"]


class Ready(TypedDict):
    op: Literal["ready"]
    pid: int
    init_s: float  # the device's start-up


class Pong(TypedDict):
    op: Literal["pong"]
    ms: float | None


class Gated(TypedDict):
    op: Literal["gated"]


class Loaded(TypedDict):
    op: Literal["loaded"]


class Precompiled(TypedDict):
    """``precompile.run``'s counts, or ``skipped``."""

    op: Literal["precompiled"]
    kernels: int
    skipped: NotRequired[bool]
    failed: NotRequired[int]
    pending: NotRequired[int]  # compiles still running when the tests began
    cases_cut_short: NotRequired[int]
    seconds: NotRequired[float]
    host_ms: NotRequired[int]
    wait_ms: NotRequired[int]
    threads: NotRequired[int]
    slowest_ms: NotRequired[list[tuple[int, int]]]


class Progress(TypedDict):
    """Kernels compiled or configs tuned so far, during a precompile or a call."""

    op: Literal["progress"]
    kind: Literal["compile", "tune"]
    done: int
    total: int


class Bound(TypedDict):
    op: Literal["bound"]
    # the private copies, one per argument: [pointer, bytes], or None for an integer
    allocations: NotRequired[list[list[int] | None]]


class Unbound(TypedDict):
    op: Literal["unbound"]


class Launched(TypedDict):
    """The host part of a call is over (its JIT included); the device part is running."""

    op: Literal["launched"]


class Done(TypedDict):
    """A call's end: the interpreter's notes (untimed), or the runner's times (timed)."""

    op: Literal["done"]
    warnings: NotRequired[list[str]]
    findings: NotRequired[list[dict[str, Any]]]
    notes: NotRequired[list[str]]  # numeric warnings on the learner's lines (numeric_notes.py)
    ms: NotRequired[float]
    ms_sync: NotRequired[float]
    sm_ghz: NotRequired[float | None]
    sm_ghz_range: NotRequired[tuple[float, float] | None]  # the slowest and fastest SM


class Arrived(TypedDict):
    """During a call: solve has called ``comm.barrier()`` for the ``count``-th time and waits
    for ``Release``."""

    op: Literal["barrier"]
    count: int


class Error(TypedDict):
    """The submission failed: runner.classify's verdict and message."""

    op: Literal["error"]
    verdict: str
    message: str


Reply = (
    Imported
    | Ready
    | Pong
    | Gated
    | Loaded
    | Precompiled
    | Progress
    | Bound
    | Unbound
    | Launched
    | Done
    | Arrived
    | Error
)


class Received(TypedDict, total=False):
    """A reply as the referee reads it: any field of any reply, each of any value (untrusted)."""

    op: object
    pid: object
    init_s: object
    ms: object
    kernels: object
    skipped: object
    failed: object
    pending: object
    cases_cut_short: object
    seconds: object
    host_ms: object
    wait_ms: object
    threads: object
    slowest_ms: object
    kind: object
    done: object
    total: object
    allocations: object
    warnings: object
    findings: object
    notes: object
    ms_sync: object
    sm_ghz: object
    sm_ghz_range: object
    verdict: object
    message: object
    count: object


REQUESTS: tuple[type, ...] = (
    Init,
    Gate,
    Ping,
    Load,
    Precompile,
    Bind,
    Unbind,
    Call,
    Release,
    Exit,
)
REPLIES: tuple[type, ...] = (
    Imported,
    Ready,
    Pong,
    Gated,
    Loaded,
    Precompiled,
    Progress,
    Bound,
    Unbound,
    Launched,
    Done,
    Arrived,
    Error,
)
