"""The submission page's grading-time bar (app/charts.py's phases_chart) adds the stages only
(#37, item 11): it added every key of ``phases``, so the tests were counted twice (``tests``
and its parts ``tests_make``, ``tests_check``, ...), and counts such as ``precompile_kernels``
were added as seconds: a Numba grading showed 'sandbox start 4.64 s' beside a wrong total."""

from __future__ import annotations

import re

from app.charts import phases_chart

# What `kerneldojo grade vector-add numba_simple.py --device cpu --json` reported for phases,
# with the counts and flags other gradings add.
NUMBA_CPU = {
    "sandbox_start": 4.64,
    "cuda_init": 0.0,
    "load": 1.1093,
    "tests_make": 2.3107,
    "tests_alloc": 0.1382,
    "first_launch": 0.135,
    "tests_check": 0.8265,
    "tests_release": 0.0571,
    "tests": 3.5186,
    "cleanup": 0.2425,
    "source_cache_hit": 1,
    "precompile_kernels": 3,
    "tle_retried": 1,
    "tle_first_cpu_s": 0.4,
}


def _legend(svg: str) -> dict[str, float]:
    return {k: float(v) for k, v in re.findall(r">([a-z ]+) ([\d.]+) s</text>", svg)}


def test_the_bar_adds_the_stages_once() -> None:
    svg = str(phases_chart(NUMBA_CPU))
    legend = _legend(svg)
    assert legend == {"sandbox start": 4.64, "load": 1.11, "tests": 3.52, "cleanup": 0.24}
    total = 4.64 + 1.1093 + 3.5186 + 0.2425
    assert f"grading took {total:.1f} s" in svg
    assert max(legend.values()) <= total
    # The parts are named inside their stage's tooltip, not added again.
    assert "<title>tests: 3.52 s; tests make 2.31 s; tests alloc 0.14 s;" in svg
    assert "precompile kernels" not in svg and "tle retried" not in svg


def test_nothing_timed_draws_nothing() -> None:
    assert phases_chart({"source_cache_hit": 1, "cuda_init": 0.0}) is None
