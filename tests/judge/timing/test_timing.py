"""The timing arithmetic that needs no GPU: statistics, the stop rule, the referee's floor."""

import pytest

from judge.timing import measure


def test_honest_calls_keep_their_own_time() -> None:
    # the referee's floor read 3-5 us above an honest call's stream time (gate_timing.py)
    own = [0.1300, 0.1302, 0.1299, 0.3470, 2.2261]
    floors = [o + d for o, d in zip(own, (0.0038, 0.0047, 0.0027, 0.0043, 0.0043), strict=True)]
    times, from_referee = measure.referee_floor(own, floors)
    assert times == own and from_referee == 0


@pytest.mark.parametrize("scale", [0.5, 0.6, 0.9, 0.95])
@pytest.mark.parametrize("true_ms", [0.130, 0.347, 2.226])
def test_a_scaled_timer_gains_at_most_the_tolerance(scale: float, true_ms: float) -> None:
    floor = true_ms + 0.0035  # what the referee measured (its overhead taken off)
    times, from_referee = measure.referee_floor([scale * true_ms] * 5, [floor] * 5)
    assert from_referee == 5
    assert min(times) >= true_ms - max(0.02 * true_ms, 0.005)


def test_a_runner_reporting_more_than_the_floor_keeps_its_time() -> None:
    times, from_referee = measure.referee_floor([0.5, 0.2], [0.3, 0.3])
    assert times == [0.5, pytest.approx(0.3 - measure.FLOOR_TOL_MS)] and from_referee == 1


def test_stats_and_stop_rule() -> None:
    st = measure.stats([1.0, 2.0, 3.0, 4.0, 100.0])
    assert st.median == 3.0 and st.min == 1.0 and st.max == 100.0 and st.runs == 5
    assert not measure.converged([1.0] * (measure.MIN_RUNS - 1))
    assert measure.converged([1.0] * measure.MIN_RUNS)
    assert not measure.converged([1.0, 2.0] * measure.MIN_RUNS)


def test_a_few_delayed_calls_do_not_stop_convergence() -> None:
    calls = [0.130 + 0.0001 * (i % 3) for i in range(20)]
    calls[3] = calls[11] = 0.9  # the host was descheduled twice
    assert measure.converged(calls)
    assert not measure.converged([0.130, 0.150, 0.170, 0.140] * 5)


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
    from judge.grader import Stop
    from judge.timing.bench import ends
    from judge.verdicts import Verdict

    with pytest.raises(Stop, match=message) as e:
        ends(msg)
    assert e.value.verdict == Verdict.REJECTED


def test_the_referee_takes_both_ends_of_an_honest_call() -> None:
    from judge.timing.bench import ends

    assert ends({"op": "done", "ms": 0.13, "ms_sync": 0.15}) == (0.13, 0.15)


def test_the_clock_of_each_sm_is_read_from_its_own_two_stamps() -> None:
    from judge.timing.hold import SLOTS, sm_ghz

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


@pytest.mark.parametrize("unit", ["fp32", "tf32", "fp16", "bf16", "int8", "fp8"])
def test_every_compute_unit_is_timed_on_a_product_that_computes_a_times_b(unit: str) -> None:
    # The closures _measure times on the GPU at 8192^3, run on the CPU at a small size: their
    # operands, layouts and calls are right (int8 exactly, in int32; the rest to their output's
    # precision).
    import torch

    from judge.problem import schema

    assert unit in schema.COMPUTE_UNITS
    prods = measure.products(unit, 64, "cpu")
    assert len(prods) == (2 if unit == "fp8" else 1)
    for p in prods:
        got = p.run().double()
        want = p.a.double() @ p.b.double()
        assert tuple(got.shape) == (64, 64)
        if unit == "int8":
            assert p.run().dtype == torch.int32 and torch.equal(got, want)
            assert want.abs().max() > 2**15  # sums beyond int16: int32 accumulation is tested
        else:
            err = (got - want).norm() / want.norm()
            assert err < 1e-2, (unit, float(err))  # bf16/fp16 outputs: ~2^-9


def test_schema_accepts_exactly_the_units_timing_can_measure() -> None:
    from judge.problem import schema

    for unit in schema.COMPUTE_UNITS:
        assert measure.products(unit, 16, "cpu")
    with pytest.raises(KeyError):
        measure.products("fp4", 16, "cpu")
