"""The timing arithmetic that needs no GPU: statistics, the stop rule, two ends of a call."""

import pytest

from worker.grading import timing


def test_one_stream_calls_get_their_stream_times_even_when_the_host_is_slow() -> None:
    # host latency 15-45 us, sometimes above the calibrated 25: still the stream's times
    ends = [(0.130, 0.130 + g) for g in (0.015, 0.018, 0.045, 0.016, 0.040, 0.017, 0.020)]
    times, late, gap = timing.call_times(ends, gap_ms=0.025)
    assert times == [0.130] * 7
    assert late == 0
    assert gap == pytest.approx(0.018)


def test_long_calls_get_their_stream_times_though_the_host_saw_their_end_later() -> None:
    # H100, 2026-11-24 (benchmarks/gpu-check/2026-11-24b-h100.md): after a 2.6 ms attention
    # kernel the host saw the idle GPU 30-3700 us late, median 91 us in the worst grading
    gaps = (0.093, 0.048, 0.130, 0.085, 0.088, 0.094, 0.074, 0.107, 1.358, 0.047)
    ends = [(2.63, 2.63 + g) for g in gaps]
    times, late, _ = timing.call_times(ends, gap_ms=0.040)
    assert late == 0
    assert times == [2.63] * len(gaps)


def test_a_long_call_leaving_a_tenth_of_its_work_on_a_side_stream_is_counted() -> None:
    ends = [(2.4, 2.4 + 0.26 + 0.015)] * 7
    times, late, _ = timing.call_times(ends, gap_ms=0.040)
    assert late == 7
    assert times == [pytest.approx(2.675)] * 7


def test_work_outlasting_the_stream_on_most_calls_is_counted_in_full() -> None:
    # a side stream kept the GPU busy 100 us after solve's stream ended, on every call; the
    # host took 15 us to see it idle: that latency is counted too
    ends = [(0.130, 0.130 + 0.100 + 0.015)] * 5
    times, late, gap = timing.call_times(ends, gap_ms=0.025)
    assert late == 5
    assert times == [pytest.approx(0.245)] * 5
    assert gap == pytest.approx(0.115)


def test_side_stream_work_is_never_timed_faster_than_its_kernel_ran() -> None:
    # H100, 2026-11-24 (benchmarks/side_stream_timing.py): solve returned at once (stream end
    # ~3 us) and a vector add whose kernel ran 126.7 us (CUPTI) went on a side stream, starting
    # up to 9.4 us before the start event; device ends 135-155 us, threshold 60 us. Taking the
    # threshold off reported ~75 us; taking the host's least latency (12 us) off, ~124 us: both
    # faster than the kernel ran, and than the GPU can move the bytes (130 us).
    ends = [(0.003, d) for d in (0.1397, 0.1346, 0.1342, 0.1544, 0.1360, 0.1356, 0.1421)]
    times, late, _ = timing.call_times(ends, gap_ms=0.060)
    assert late == len(ends)
    assert times == [d for _, d in ends]
    assert min(times) >= 0.1267 - 0.0094


def test_a_few_late_calls_do_not_move_the_median() -> None:
    ends = [(0.130, 0.146)] * 8 + [(0.100, 0.300)] * 2
    times, late, _ = timing.call_times(ends, gap_ms=0.025)
    assert late == 0
    assert timing.stats(times).median == 0.130


def test_a_device_end_before_the_stream_end_is_refused() -> None:
    with pytest.raises(ValueError, match="ended before"):
        timing.call_times([(0.130, 0.100)], gap_ms=0.025)


def test_stats_and_stop_rule() -> None:
    st = timing.stats([1.0, 2.0, 3.0, 4.0, 100.0])
    assert st.median == 3.0 and st.min == 1.0 and st.max == 100.0 and st.runs == 5
    assert not timing.converged([1.0] * (timing.MIN_RUNS - 1))
    assert timing.converged([1.0] * timing.MIN_RUNS)
    assert not timing.converged([1.0, 2.0] * timing.MIN_RUNS)


def test_a_few_delayed_calls_do_not_stop_convergence() -> None:
    calls = [0.130 + 0.0001 * (i % 3) for i in range(20)]
    calls[3] = calls[11] = 0.9  # the host was descheduled twice
    assert timing.converged(calls)
    assert not timing.converged([0.130, 0.150, 0.170, 0.140] * 5)


@pytest.mark.parametrize(
    ("msg", "message"),
    [
        ({"op": "done", "ms": None, "ms_sync": 0.2}, "no valid time"),
        ({"op": "done", "ms": 0.1}, "no valid time"),
        ({"op": "done", "ms": float("nan"), "ms_sync": 0.2}, "no valid time"),
        ({"op": "done", "ms": -1.0, "ms_sync": 0.2}, "no valid time"),
        ({"op": "done", "ms": 0.2, "ms_sync": 0.1}, "ended before its own work"),
    ],
)
def test_the_referee_rejects_impossible_times_from_the_runner(
    msg: dict[str, object], message: str
) -> None:
    from worker.grading.grader import Stop, _Session
    from worker.grading.verdicts import Verdict

    with pytest.raises(Stop, match=message) as e:
        _Session._ends(msg)
    assert e.value.verdict == Verdict.REJECTED


def test_the_referee_takes_both_ends_of_an_honest_call() -> None:
    from worker.grading.grader import _Session

    assert _Session._ends({"op": "done", "ms": 0.13, "ms_sync": 0.15}) == (0.13, 0.15)


def test_the_clock_of_each_sm_is_read_from_its_own_two_stamps() -> None:
    from worker.grading.hold import SLOTS, sm_ghz

    gen = 7
    rows = [[0] * SLOTS for _ in range(6)]  # start: gen, ns, cycles; end: gen, ns, cycles
    # SM 0: 1.8 GHz over 2 ms; SM 3: 1.98 GHz over 1 ms; SM 5: a stale end stamp
    for sm, (ns0, c0, ns1, c1, gen1) in {
        0: (1_000, 10_000, 2_001_000, 3_610_000, gen),
        3: (5_000, 0, 1_005_000, 1_980_000, gen),
        5: (5_000, 0, 1_005_000, 1_980_000, gen - 1),
    }.items():
        rows[0][sm], rows[1][sm], rows[2][sm] = gen, ns0, c0
        rows[3][sm], rows[4][sm], rows[5][sm] = gen1, ns1, c1
    got = sm_ghz([v for row in rows for v in row], gen)
    assert got == [pytest.approx(1.8), pytest.approx(1.98)]
    assert sm_ghz([v for row in rows for v in row], gen + 1) == []
