"""compute-sanitizer's output, recorded on an H100, read into findings (profile/sanitizer.py)."""

from __future__ import annotations

from judge.profile import sanitizer, tools
from tests.judge.profile.conftest import recorded

BASE = 0x7F752E800000  # the nearest allocation in sanitizer-memcheck-oob.txt: a, 1000 floats


def test_memcheck_names_the_line_thread_and_element() -> None:
    found, errors = sanitizer.parse(
        recorded("sanitizer-memcheck-oob.txt"), {"a": (BASE, 4000)}, {"a": 4}, ("oob.cu",)
    )
    assert errors == 25
    first = found[0]
    assert (first.kind, first.file, first.line) == ("invalid global read", "oob.cu", 6)
    assert first.kernel == "add(const float *, const float *, float *, int)"
    assert (first.thread, first.block) == ("(232,0,0)", "(3,0,0)")
    assert first.message == (
        "invalid global read of size 4 at oob.cu:6, thread (232,0,0) block (3,0,0), "
        "at a[1000], past the end of a (1000 elements)"
    )
    # Every thread past the end faults at the same line: one finding per kind and place.
    assert len({(f.kind, f.line) for f in found}) == len(found)


def test_memcheck_without_the_runners_map() -> None:
    found, errors = sanitizer.parse(recorded("sanitizer-memcheck-oob-limit5.txt"))
    assert errors == 25  # the summary's count, not "20 errors were not printed"
    assert found[0].message.endswith("1 bytes after an allocation of 4,000 bytes")
    assert found[0].file == "oob.cu"  # the source named even when it is not the submission's


def test_triton_kernel_maps_to_its_python_line() -> None:
    found, errors = sanitizer.parse(recorded("sanitizer-memcheck-triton.txt"))
    assert errors == 8
    f = found[0]
    assert (f.kind, f.kernel, f.file, f.line) == (
        "invalid global read",
        "add_kernel",
        "triton_oob.py",
        10,
    )
    # The launch's Python frames (triton_oob.py:19) are host side: never the finding's place.
    assert all(f.line != 19 for f in found)
    assert not any(d.startswith("Host Frame") for d in f.details)


def test_racecheck() -> None:
    found, errors = sanitizer.parse(recorded("sanitizer-racecheck.txt"))
    assert errors == 7
    assert len(found) == 1  # every hazard of this kernel is on race.cu:9
    assert found[0].kind == "race"
    assert found[0].message == (
        "shared-memory race between a write at race.cu:9 and a read at race.cu:9 (58368 hazards)"
    )


def test_sandbox_paths_are_shortened() -> None:
    text = (
        "========= Invalid __global__ write of size 4 bytes\n"
        "=========     at k(float *)+0x70 in /sandbox/solution.cu:12\n"
        "=========     by thread (255,0,0) in block (4096,0,0)\n"
        "=========     Access to 0x1010 is out of bounds\n"
        "=========     and is 1 bytes after the nearest allocation at 0x1000 of size 16 bytes\n"
        "========= ERROR SUMMARY: 1 error\n"
    )
    found, errors = sanitizer.parse(text, {"c": (0x1000, 16)}, {"c": 4})
    assert errors == 1
    assert found[0].message == (
        "invalid global write of size 4 at solution.cu:12, thread (255,0,0) block (4096,0,0), "
        "at c[4], past the end of c (4 elements)"
    )


def test_nothing_found() -> None:
    assert sanitizer.parse("========= COMPUTE-SANITIZER\n========= ERROR SUMMARY: 0 errors\n") == (
        [],
        0,
    )


def test_the_tool_waits_for_the_runners_cuda_start_however_long() -> None:
    """compute-sanitizer's default 10 s attach timeout left a slow-importing runner hung."""
    for tool in ("memcheck", "racecheck"):
        argv = tools.sanitizer_command("/cuda/bin/compute-sanitizer", tool, "/w/s.log")
        i = argv.index("--launch-timeout")
        assert argv[i + 1] == "0" and argv[argv.index("--tool") + 1] == tool
