"""The timing arithmetic that needs no GPU: statistics, the stop rule, two ends of a call."""

import pytest

from worker.grading import timing


def test_one_stream_call_gets_its_stream_time() -> None:
    # the host's usual 20 us after the kernel's end is not counted
    assert timing.call_time(0.130, 0.150, gap_ms=0.025) == (0.130, False)


def test_work_outlasting_the_stream_is_counted_less_the_calibrated_gap() -> None:
    # a side stream kept the GPU busy 100 us after solve's stream ended
    t, device_end = timing.call_time(0.130, 0.255, gap_ms=0.025)
    assert device_end
    assert t == pytest.approx(0.230)


def test_a_device_end_before_the_stream_end_is_refused() -> None:
    with pytest.raises(ValueError, match="ended before"):
        timing.call_time(0.130, 0.100, gap_ms=0.025)


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
