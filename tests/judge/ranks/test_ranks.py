"""Problems that span GPUs, graded on the CPU (docs/multi-gpu.md): two runner processes with
shared peer buffers, the ranks run one at a time between barriers, every rank checked.

allreduce-sum's samples get their verdicts, the missing barrier and the race on the output
fail in the first cases that can show them whichever rank the judge makes late; a rank that
crashes, hangs or calls the barrier a different number of times fails the grading with a
message naming it; no runner process and no shared file outlives a grading.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from judge.grader import grade
from judge.problem import loader
from judge.problem.schema import Problem
from judge.ranks.schedule import late_order
from judge.results import GradeResult
from judge.verdicts import Verdict

FOLDER = loader.REPO_PROBLEMS / "allreduce-sum"
PROBLEM = loader.load_problem(FOLDER)


def _descendants() -> set[int]:
    """Every process below this one, from /proc's children files."""
    out: set[int] = set()
    todo = [os.getpid()]
    while todo:
        pid = todo.pop()
        for task in Path(f"/proc/{pid}/task").glob("*"):
            try:
                kids = [int(k) for k in (task / "children").read_text().split()]
            except OSError:
                continue
            for k in kids:
                if k not in out:
                    out.add(k)
                    todo.append(k)
    return out


def _rank_folders() -> set[str]:
    return {p.name for p in Path(tempfile.gettempdir()).glob("kerneldojo-ranks-*")}


@pytest.fixture
def clean() -> Iterator[None]:
    """The grading leaves no process and no folder of its own behind."""
    procs, folders = _descendants(), _rank_folders()
    yield
    assert _descendants() <= procs, "a runner process outlived its grading"
    assert _rank_folders() <= folders, "a grading's shared buffers were left on disk"


def _grade(source: str, problem: Problem = PROBLEM, **kw: object) -> GradeResult:
    kw.setdefault("sanitize", False)
    return grade(problem, source, "triton", device="cpu", **kw)  # type: ignore[arg-type]


def _sample(name: str) -> str:
    return next(s for s in PROBLEM.samples if s.path.name == name).path.read_text()


def test_the_problem_spans_two_ranks_and_every_rank_is_late_in_turn() -> None:
    assert PROBLEM.gpus == 2
    assert late_order(2, 0) == [1, 0] and late_order(3, 1) == [0, 2, 1]
    # more cases than ranks: each rank is the late one at least once on the CPU
    assert sum(c.interpreter for c in PROBLEM.tests) > PROBLEM.gpus


def test_the_accepted_sample_is_accepted_on_two_ranks(clean: None) -> None:
    r = _grade(_sample("triton_fast.py"))
    assert r.verdict == Verdict.ACCEPTED, r.message
    assert r.phases["ranks"] == 2
    assert [c.name for c in r.cases] == [c.name for c in PROBLEM.tests if c.interpreter]
    assert all(c.passed for c in r.cases)


@pytest.mark.parametrize(
    "name",
    [
        "wrong_answer_no_barrier.py",
        "wrong_answer_race_on_output.py",
        "wrong_answer_skips_its_share.py",
    ],
)
def test_each_rejected_sample_fails_in_its_first_case_that_can_show_it(
    name: str, clean: None
) -> None:
    r = _grade(_sample(name), all_cases=False)
    assert r.verdict == Verdict.WRONG_ANSWER, r.message
    # The missing barrier fails at n = 1 whichever rank is late; the race needs both ranks to
    # own a slice (n = 3); the skipped share needs the last rank to own one (n = 3).
    first = {"wrong_answer_no_barrier.py": 1}.get(name, 2)
    assert len(r.cases) <= first, r.message
    assert "rank " in r.message and ": y: " in r.message and "NaN" in r.message


def test_a_rank_that_raises_is_named(clean: None) -> None:
    r = _grade(_sample("runtime_error_no_such_rank.py"), all_cases=False)
    assert r.verdict == Verdict.RUNTIME_ERROR
    assert r.message.startswith("rank 0: Traceback"), r.message
    assert "comm.peer: rank must be an int from 0 to 1, got 2" in r.message


CRASH = """
import os, signal

def solve(x, y, n, comm):
    comm.barrier()
    if comm.rank == 1:
        os.kill(os.getpid(), signal.SIGKILL)
    comm.barrier()
"""


def test_a_rank_that_crashes_fails_the_grading_and_every_runner_goes(clean: None) -> None:
    r = _grade(CRASH, static_policy=False, all_cases=False)
    assert r.verdict == Verdict.RUNTIME_ERROR, r.message
    assert r.message.startswith("rank 1: while running: the process was killed by signal SIGKILL")


HANG = """
import time

def solve(x, y, n, comm):
    if comm.rank == 1:
        time.sleep(3600)  # waits for something that never comes
    comm.barrier()
"""


@pytest.fixture
def quick(tmp_path: Path) -> Problem:
    """allreduce-sum with a 2-second call limit: a hang ends soon."""
    dst = tmp_path / "allreduce-sum"
    shutil.copytree(FOLDER, dst)
    toml = dst / "problem.toml"
    toml.write_text(toml.read_text().replace("call_s = 10 ", "call_s = 2 "))
    problem = loader.load_problem(dst)
    assert problem.limits.call_s == 2
    return problem


def test_a_rank_that_hangs_times_out_by_name(quick: Problem, clean: None) -> None:
    r = _grade(HANG, quick, static_policy=False, all_cases=False)
    assert r.verdict == Verdict.TIME_LIMIT_EXCEEDED, r.message
    assert r.message.startswith("rank 1: no answer after"), r.message
    # It slept through its limit: no CPU time confirms the time-out, so it was graded once
    # more, as a one-GPU grading would be (grader._starved), and timed out again.
    assert r.phases.get("tle_retried") == 1


# Rank 0 passes one barrier more than rank 1; between the first two, each rank says what its
# sandbox shows it (one grading for both tests' worth: each grading starts two runners).
UNEVEN = """
import os

def solve(x, y, n, comm):
    comm.barrier()
    pids = [p for p in os.listdir("/proc") if p.isdigit()]
    print("rank", comm.rank, "sees", len(pids), "processes;", " ".join(sorted(os.listdir("."))))
    if comm.rank == 0:
        comm.barrier()
"""


def test_uneven_barriers_are_told_and_a_rank_sees_only_its_own_sandbox(clean: None) -> None:
    """Ranks that pass different numbers of barriers are told so, by rank. Each rank's sandbox
    is its own PID namespace (not the peer's runner, not the referee) and its own work folder,
    where the peers' buffers are links and the referee's folder is absent."""
    r = _grade(UNEVEN, static_policy=False, all_cases=False)
    assert r.verdict == Verdict.RUNTIME_ERROR, r.message
    assert r.message == (
        "rank 0 waits at comm.barrier() number 2, but rank 1 returned from solve after 1: "
        "every rank must call comm.barrier() the same number of times"
    )
    for rank in (0, 1):
        line = next(x for x in r.stdout.splitlines() if x.startswith(f"rank {rank} sees"))
        count, files = line.removeprefix(f"rank {rank} sees ").split(" processes; ")
        assert int(count) <= 3, line  # the sandbox's init, the runner (and its shell, if any)
        names = files.split()
        assert {"output.log", "solution.py"} <= set(names)
        bufs = sorted(n.rsplit("-", 1)[0] for n in names if n.endswith(".buf"))
        assert bufs == ["t1_r0_x", "t1_r0_y", "t1_r1_x", "t1_r1_y"], names
        assert len(names) == 6, names


def test_a_language_without_peer_buffers_is_refused_before_any_runner() -> None:
    r = grade(PROBLEM, "def solve(x, y, n, comm):\n    pass\n", "numba", device="cpu")
    assert r.verdict == Verdict.COMPILE_ERROR
    assert "spans 2 GPUs" in r.message and "Triton or PyTorch" in r.message


def test_a_reference_that_answers_for_one_rank_is_named() -> None:
    """reference() of a problem with gpus = N returns one dict per rank: a folder whose
    reference answers with one dict is told so, naming reference.py and the function."""
    from types import SimpleNamespace

    from judge.problem.schema import ProblemError
    from judge.ranks.grading import make

    real = loader.load_reference(PROBLEM)
    case = PROBLEM.tests[1]
    inputs, expected, scales = make(real, PROBLEM, case, "cpu")
    assert len(inputs) == len(expected) == len(scales) == 2
    assert expected[0]["y"].dtype.is_floating_point
    summed = inputs[0]["x"].double() + inputs[1]["x"].double()
    assert (expected[1]["y"] == summed).all()

    broken = SimpleNamespace(
        generate=real.generate, reference=lambda inputs, params: {"y": inputs[0]["x"]}
    )
    with pytest.raises(ProblemError) as e:
        make(broken, PROBLEM, case, "cpu")
    assert e.value.field == "reference" and e.value.file.endswith("allreduce-sum/reference.py")
    assert "must return a list of 2 dicts, one per rank" in str(e.value)


def test_the_starters_take_comm() -> None:
    from judge import languages

    for name in ("triton", "pytorch"):
        lang = languages.require(name)
        assert lang.signature(PROBLEM) == "def solve(x, y, n, comm):"
        assert "def solve(x: torch.Tensor, y: torch.Tensor, n: int, comm):" in lang.starter(PROBLEM)


def test_the_playground_says_it_runs_one_rank() -> None:
    from judge import playground
    from judge.playcase import PlaygroundError

    with pytest.raises(PlaygroundError, match="spans 2 GPUs and the playground runs one rank"):
        playground.run(PROBLEM, _sample("triton_fast.py"), "triton", {"n": 8}, device="cpu")


def test_profiling_such_a_problem_is_not_run_with_the_reason() -> None:
    r = _grade(_sample("triton_fast.py"), mode="profile")
    assert r.verdict == Verdict.NOT_RUN
    assert "profiling a problem that spans 2 GPUs is not supported yet" in r.message


def test_no_one_gpu_baseline_is_timed_for_it() -> None:
    """Its baseline is a collective timed with a process group on N GPUs (to do): the one-GPU
    timing of a baseline would call it without comm."""
    from judge.timing import baseline

    assert baseline.time_baseline(PROBLEM, PROBLEM.benchmarks[0]) is None
