"""Problem folders: ``problem.toml`` parsed into a strict, typed schema.

Every error names the file and the field and says what was expected, so an instructor can
fix a folder without reading this code. Only the standard library is used here: the judge
core must run on GPU hosts that have nothing but torch, triton and numpy.

The schema stores checker and language names; what they mean belongs to the registries
(checkers/, languages/), which import this module for its types. ``parse_problem`` is told the
checkers and how to tell a sample's language by its caller (``loader.load_problem``), so this
module imports neither registry.
"""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from judge.problem import expr
from judge.problem.dtypes import DTYPES
from judge.verdicts import Verdict

# The checker a problem gets when its [check] names none (checkers/close.py).
DEFAULT_CHECKER = "close"

# Matrix-unit peaks a [roofline] may name; each is measured on the GPU (timing.products).
COMPUTE_UNITS = ("fp32", "tf32", "fp16", "bf16", "int8", "fp8")
DIFFICULTIES = ("easy", "medium", "hard")
# Learning tracks in the order the Learn page shows them (slug: label).
TRACKS = {
    "foundations": "Foundations",
    "parallel-patterns": "Parallel patterns",
    "llm-kernels": "LLM kernels",
}
ROLES = ("input", "output", "inout", "int")
# The most ranks a problem may span (``gpus``): every rank is a runner process of its own, so the
# bound is the largest host a grading could be given (8 GPUs) with room for a CPU test of more.
MAX_GPUS = 64
_SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


class ProblemError(ValueError):
    """A problem folder is invalid. ``str()`` reads ``file: field: what is wrong``."""

    def __init__(self, file: Path | str, field: str, message: str) -> None:
        self.file = str(file)
        self.field = field
        self.message = message
        super().__init__(f"{self.file}: {field}: {message}" if field else f"{self.file}: {message}")


@dataclass(frozen=True)
class Arg:
    name: str
    # "input" | "output" | "int" | "inout" (given an input and judged as an output: a sort in
    # place; filled with its input before every call rather than poisoned)
    role: str
    dtype: str = "int32"
    shape: tuple[str, ...] = ()

    @property
    def is_tensor(self) -> bool:
        return self.role != "int"

    def c_decl(self) -> str:
        if not self.is_tensor:
            return f"int {self.name}"
        const = "const " if self.role == "input" else ""
        return f"{const}{DTYPES[self.dtype].c_type}* {self.name}"


@dataclass(frozen=True)
class Case:
    name: str
    params: dict[str, int]
    kind: str = "random"
    # Large cases can be too slow for the CPU interpreter; they still run on a GPU.
    interpreter: bool = True


@dataclass(frozen=True)
class Check:
    """``[check]``: the checker's name (checkers/) and its options."""

    rtol: float = 0.0
    atol: float = 0.0
    max_rel_l2: float | None = None
    checker: str = DEFAULT_CHECKER
    # The checker's options that name outputs (``keys = "keys"``), as (option, output) pairs.
    names: tuple[tuple[str, str], ...] = ()

    def option(self, key: str) -> str:
        return dict(self.names)[key]


@dataclass(frozen=True)
class Limits:
    compile_s: float = 120.0
    call_s: float = 10.0
    total_s: float = 300.0
    # Host memory the sandboxed runner may use, and device memory a submission may allocate
    # on top of what its runner held before loading it (gpumem.py); unset: twice the largest
    # case's inputs and outputs plus 1 GiB (Problem.gpu_budget_mb).
    host_memory_mb: int = 8192
    scratch_memory_mb: int | None = None


@dataclass(frozen=True)
class Roofline:
    flops: str
    bytes: str
    compute: str = "fp32"

    def counts(self, params: dict[str, int]) -> tuple[float, float]:
        return float(expr.evaluate(self.flops, params)), float(expr.evaluate(self.bytes, params))


@dataclass(frozen=True)
class SampleSolution:
    path: Path
    language: str
    expected: Verdict
    # From a header line ``expect-message: <text>``: the result's message must contain it.
    expected_message: str | None = None

    def message_ok(self, message: str | None) -> bool:
        """Whether a result's message contains the declared one (always, when none is declared)."""
        return self.expected_message is None or self.expected_message in (message or "")


@dataclass(frozen=True)
class Problem:
    slug: str
    path: Path
    title: str
    difficulty: str
    tags: tuple[str, ...]
    order: int
    args: tuple[Arg, ...]
    check: Check
    limits: Limits
    roofline: Roofline
    tests: tuple[Case, ...]
    benchmarks: tuple[Case, ...]
    forbid_library_compute: bool = True
    samples: tuple[SampleSolution, ...] = field(default=())
    track: str | None = None  # a key of TRACKS; None: listed after the tracks
    prerequisites: tuple[str, ...] = ()  # slugs a learner should solve first
    # Ranks the problem spans: one sandboxed runner per rank, each on its own GPU (on the CPU,
    # one runner process per rank); docs/multi-gpu.md.
    gpus: int = 1

    @property
    def inputs(self) -> list[Arg]:
        """What generate() returns: inputs and in-place arguments."""
        return [a for a in self.args if a.role in ("input", "inout")]

    @property
    def outputs(self) -> list[Arg]:
        """What the checker judges: outputs and in-place arguments."""
        return [a for a in self.args if a.role in ("output", "inout")]

    @property
    def int_args(self) -> list[Arg]:
        return [a for a in self.args if a.role == "int"]

    def gpu_budget_mb(self) -> int:
        """GPU memory a submission may hold beyond its runner's own (Limits.scratch_memory_mb)."""
        if self.limits.scratch_memory_mb is not None:
            return self.limits.scratch_memory_mb
        largest = max(
            sum(
                math.prod(self.shape(a, c.params)) * DTYPES[a.dtype].itemsize
                for a in self.args
                if a.is_tensor
            )
            for c in (*self.tests, *self.benchmarks)
        )
        return 2 * (largest >> 20) + 1024

    def shape(self, arg: Arg, params: dict[str, int]) -> tuple[int, ...]:
        return tuple(int(expr.evaluate(s, params)) for s in arg.shape)

    def file(self, name: str) -> Path:
        return self.path / name

    @property
    def statement(self) -> str:
        return (self.path / "statement.md").read_text(encoding="utf-8")

    @property
    def editorial(self) -> str | None:
        p = self.path / "editorial.md"
        return p.read_text(encoding="utf-8") if p.exists() else None


class _Table:
    """A TOML table being read: tracks which keys were used so unknown ones are reported."""

    def __init__(self, file: Path, prefix: str, data: Any) -> None:
        if not isinstance(data, dict):
            raise ProblemError(file, prefix, f"expected a table, got {type(data).__name__}")
        self.file, self.prefix, self.data = file, prefix, data
        self.used: set[str] = set()

    def _f(self, key: str) -> str:
        return f"{self.prefix}.{key}" if self.prefix else key

    def get(
        self, key: str, typ: type | tuple[type, ...], default: Any = ..., *, what: str = ""
    ) -> Any:
        self.used.add(key)
        if key not in self.data:
            if default is ...:
                raise ProblemError(
                    self.file, self._f(key), f"missing; expected {what or _tname(typ)}"
                )
            return default
        value = self.data[key]
        ok = isinstance(value, typ) and not (isinstance(value, bool) and bool not in _as_tuple(typ))
        if not ok:
            raise ProblemError(
                self.file, self._f(key), f"expected {what or _tname(typ)}, got {value!r}"
            )
        return value

    def finish(self) -> None:
        extra = sorted(set(self.data) - self.used)
        if extra:
            raise ProblemError(self.file, self._f(extra[0]), "unknown field (check the spelling)")


def _as_tuple(t: type | tuple[type, ...]) -> tuple[type, ...]:
    return t if isinstance(t, tuple) else (t,)


def _tname(t: type | tuple[type, ...]) -> str:
    names = {
        int: "an integer",
        float: "a number",
        str: "a string",
        list: "a list",
        dict: "a table",
        bool: "true or false",
    }
    return " or ".join(names.get(x, x.__name__) for x in _as_tuple(t))


class CheckerOption(Protocol):
    """What the schema reads of a checker's option (checkers/base.py ``Option``)."""

    @property
    def kind(self) -> str: ...
    @property
    def required(self) -> bool: ...


class CheckerSpec(Protocol):
    """What the schema needs of a checker (checkers/base.py ``Checker``): its options, read from
    ``[check]``, and its own validation of them against the signature's outputs."""

    @property
    def options(self) -> Mapping[str, CheckerOption]: ...
    def validate(self, check: Check, outputs: list[Arg]) -> tuple[str, str] | None: ...


# A sample's language from its file name and text (``languages.infer``), None: not a sample.
InferLanguage = Callable[[str, str], str | None]


def parse_problem(
    path: Path, checkers: Mapping[str, CheckerSpec], infer_language: InferLanguage
) -> Problem:
    """Load and validate one problem folder, with the checkers a ``[check]`` may name and the
    way to tell a sample's language (``loader.load_problem`` passes the registries')."""
    path = Path(path)
    toml_path = path / "problem.toml"
    if not toml_path.is_file():
        raise ProblemError(toml_path, "", "file not found (every problem folder needs one)")
    try:
        raw = tomllib.loads(toml_path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise ProblemError(toml_path, "", f"not valid TOML: {e}") from e

    top = _Table(toml_path, "", raw)
    title = top.get("title", str)
    difficulty = top.get("difficulty", str)
    if difficulty not in DIFFICULTIES:
        raise ProblemError(
            toml_path, "difficulty", f"expected one of {DIFFICULTIES}, got {difficulty!r}"
        )
    tags = top.get("tags", list, [])
    if not all(isinstance(t, str) for t in tags):
        raise ProblemError(toml_path, "tags", "expected a list of strings")
    order = top.get("order", int, 100)
    track = top.get("track", str, None)
    if track is not None and track not in TRACKS:
        raise ProblemError(toml_path, "track", f"expected one of {list(TRACKS)}, got {track!r}")
    prerequisites = top.get("prerequisites", list, [], what="a list of problem slugs")
    for i, slug in enumerate(prerequisites):
        if not isinstance(slug, str) or not _SLUG.fullmatch(slug):
            raise ProblemError(
                toml_path, f"prerequisites[{i}]", f"expected a problem slug, got {slug!r}"
            )
        if slug == path.name:
            raise ProblemError(toml_path, f"prerequisites[{i}]", "a problem cannot require itself")
    if len(set(prerequisites)) != len(prerequisites):
        raise ProblemError(toml_path, "prerequisites", "slugs must be unique")

    gpus = top.get("gpus", int, 1, what="an integer, the number of GPUs (ranks) it spans")
    if not 1 <= gpus <= MAX_GPUS:
        raise ProblemError(
            toml_path, "gpus", f"expected an integer from 1 to {MAX_GPUS} (ranks), got {gpus}"
        )

    sig = _Table(toml_path, "signature", top.get("signature", dict))
    args = _load_args(toml_path, sig.get("args", list, what="a list of {name, role, dtype, shape}"))
    sig.finish()
    int_names = {a.name for a in args if a.role == "int"}

    check = _load_check(toml_path, top.get("check", dict), args, checkers)

    lim = _Table(toml_path, "limits", top.get("limits", dict, {}))
    d = Limits()
    limits = Limits(
        compile_s=float(lim.get("compile_s", (int, float), d.compile_s)),
        call_s=float(lim.get("call_s", (int, float), d.call_s)),
        total_s=float(lim.get("total_s", (int, float), d.total_s)),
        host_memory_mb=lim.get("host_memory_mb", int, d.host_memory_mb),
        scratch_memory_mb=lim.get(
            "scratch_memory_mb", int, d.scratch_memory_mb, what="an integer (MiB)"
        ),
    )
    lim.finish()

    roof = _Table(toml_path, "roofline", top.get("roofline", dict))
    roofline = Roofline(
        flops=roof.get("flops", str, what="an expression over the int arguments"),
        bytes=roof.get("bytes", str, what="an expression over the int arguments"),
        compute=roof.get("compute", str, "fp32"),
    )
    if roofline.compute not in COMPUTE_UNITS:
        raise ProblemError(toml_path, "roofline.compute", f"expected one of {COMPUTE_UNITS}")
    for key in ("flops", "bytes"):
        _check_expr(toml_path, f"roofline.{key}", getattr(roofline, key), int_names)

    rules = _Table(toml_path, "rules", top.get("rules", dict, {}))
    forbid = rules.get("forbid_library_compute", bool, True)
    rules.finish()

    tests = _load_cases(
        toml_path, "tests", top.get("tests", list, what="a list of [[tests]] tables"), int_names
    )
    benchmarks = _load_cases(
        toml_path,
        "benchmarks",
        top.get("benchmarks", list, what="a list of [[benchmarks]] tables"),
        int_names,
    )
    top.finish()

    # Starters are optional: a language writes one from the signature (languages/).
    for name in ("statement.md", "reference.py"):
        if not (path / name).is_file():
            raise ProblemError(path / name, "", "file not found (required in every problem folder)")

    return Problem(
        slug=path.name,
        path=path,
        title=title,
        difficulty=difficulty,
        tags=tuple(tags),
        order=order,
        args=tuple(args),
        check=check,
        limits=limits,
        roofline=roofline,
        tests=tuple(tests),
        benchmarks=tuple(benchmarks),
        forbid_library_compute=forbid,
        samples=tuple(_load_samples(path, infer_language)),
        track=track,
        prerequisites=tuple(prerequisites),
        gpus=gpus,
    )


def _load_check(
    file: Path, data: Any, args: list[Arg], checkers: Mapping[str, CheckerSpec]
) -> Check:
    """``[check]``: a checker by name and the options it declares (checkers/)."""
    chk = _Table(file, "check", data)
    name = chk.get("checker", str, DEFAULT_CHECKER)
    if name not in checkers:
        raise ProblemError(
            file,
            "check.checker",
            f"unknown checker {name!r}; expected one of {sorted(checkers)}",
        )
    impl = checkers[name]
    outputs = [a for a in args if a.role in ("output", "inout")]
    numbers: dict[str, float | None] = {}
    names: list[tuple[str, str]] = []
    for key, opt in impl.options.items():
        if opt.kind == "number":
            value = chk.get(key, (int, float), ... if opt.required else None)
            numbers[key] = None if value is None else float(value)
        else:
            out = chk.get(key, str, ... if opt.required else None, what="the name of an output")
            if out is None:
                continue
            if out not in {a.name for a in outputs}:
                raise ProblemError(
                    file,
                    f"check.{key}",
                    f"{out!r} is not an output; expected one of {[a.name for a in outputs]}",
                )
            names.append((key, out))
    extra = sorted(set(chk.data) - chk.used)
    if extra:
        raise ProblemError(
            file,
            f"check.{extra[0]}",
            f"unknown field for the {name} checker (it reads {['checker', *impl.options]})",
        )
    check = Check(
        rtol=numbers.get("rtol") or 0.0,
        atol=numbers.get("atol") or 0.0,
        max_rel_l2=numbers.get("max_rel_l2"),
        checker=name,
        names=tuple(names),
    )
    problem = impl.validate(check, outputs)
    if problem is not None:
        key, message = problem
        raise ProblemError(file, f"check.{key}", message)
    return check


def _check_expr(file: Path, fld: str, text: str, allowed: set[str]) -> None:
    try:
        unknown = expr.names(text) - allowed
    except expr.ExprError as e:
        raise ProblemError(file, fld, str(e)) from e
    if unknown:
        raise ProblemError(file, fld, f"refers to {sorted(unknown)}, which are not int arguments")


def _load_args(file: Path, items: list[Any]) -> list[Arg]:
    args: list[Arg] = []
    for i, item in enumerate(items):
        t = _Table(file, f"signature.args[{i}]", item)
        name = t.get("name", str)
        role = t.get("role", str)
        if role not in ROLES:
            raise ProblemError(
                file, f"signature.args[{i}].role", f"expected one of {ROLES}, got {role!r}"
            )
        if role == "int":
            args.append(Arg(name=name, role=role))
        else:
            dtype = t.get("dtype", str)
            if dtype not in DTYPES:
                raise ProblemError(
                    file,
                    f"signature.args[{i}].dtype",
                    f"expected one of {sorted(DTYPES)}, got {dtype!r}",
                )
            shape = t.get("shape", list, what='a list of expressions, e.g. ["rows", "cols"]')
            args.append(Arg(name=name, role=role, dtype=dtype, shape=tuple(str(s) for s in shape)))
        t.finish()
    names = [a.name for a in args]
    if len(set(names)) != len(names):
        raise ProblemError(file, "signature.args", "argument names must be unique")
    if not any(a.role in ("output", "inout") for a in args):
        raise ProblemError(file, "signature.args", "needs at least one output (or inout)")
    ints = {a.name for a in args if a.role == "int"}
    for i, a in enumerate(args):
        for s in a.shape:
            _check_expr(file, f"signature.args[{i}].shape", s, ints)
    return args


def _load_cases(file: Path, section: str, items: list[Any], int_names: set[str]) -> list[Case]:
    if not items:
        raise ProblemError(file, section, "needs at least one case")
    cases: list[Case] = []
    for i, item in enumerate(items):
        t = _Table(file, f"{section}[{i}]", item)
        name = t.get("name", str)
        kind = t.get("kind", str, "random")
        interp = t.get("interpreter", bool, True)
        params: dict[str, int] = {}
        for p in sorted(int_names):
            v = t.get(p, int, what=f"an integer value for the int argument {p!r}")
            if v < 1:
                raise ProblemError(file, f"{section}[{i}].{p}", f"must be at least 1, got {v}")
            params[p] = v
        t.finish()
        cases.append(Case(name=name, params=params, kind=kind, interpreter=interp))
    names = [c.name for c in cases]
    if len(set(names)) != len(names):
        raise ProblemError(file, section, "case names must be unique")
    return cases


def _load_samples(path: Path, infer_language: InferLanguage) -> list[SampleSolution]:
    out: list[SampleSolution] = []
    for sub in ("accepted", "rejected"):
        folder = path / "solutions" / sub
        if not folder.is_dir():
            continue
        for f in sorted(folder.iterdir()):
            try:
                text = f.read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            lang = infer_language(f.name, text)
            if lang is None:
                continue
            if sub == "accepted":
                expected, message = Verdict.ACCEPTED, None
            else:
                expected, message = _declared_verdict(f), _declared_message(f)
            out.append(
                SampleSolution(
                    path=f,
                    language=lang,
                    expected=expected,
                    expected_message=message,
                )
            )
    return out


def _header(f: Path) -> list[str]:
    """The first ten lines of a sample, without comment markers (``#``, ``//``, `` * ``)."""
    return [
        line.strip().lstrip("#/ *").strip()
        for line in f.read_text(encoding="utf-8").splitlines()[:10]
    ]


def _declared_message(f: Path) -> str | None:
    """A rejected sample may also declare part of the message its result must contain, by a
    header line ``expect-message: <substring>`` (e.g. ``c: wrote past the end``)."""
    for s in _header(f):
        if s.startswith("expect-message:"):
            value = s.removeprefix("expect-message:").strip()
            if not value:
                raise ProblemError(
                    f, "expect-message", "empty; expected the text the result's message contains"
                )
            return value
    return None


def _declared_verdict(f: Path) -> Verdict:
    """A rejected sample declares its verdict by a header line ``expect: <verdict>`` or its name."""
    for s in _header(f):
        if s.startswith("expect:"):
            value = s.removeprefix("expect:").strip()
            try:
                return Verdict(value)
            except ValueError as e:
                raise ProblemError(
                    f,
                    "expect",
                    f"unknown verdict {value!r}; expected one of {[v.value for v in Verdict]}",
                ) from e
    for v in sorted(Verdict, key=lambda v: -len(v.value)):
        if f.stem.startswith(v.value):
            return v
    raise ProblemError(
        f,
        "expect",
        "a rejected sample must declare its verdict: a header line 'expect: wrong_answer' or a file name starting with the verdict",
    )
