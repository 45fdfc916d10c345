"""Timing on a GPU: the referee's clock (gate, hold), calibration, benchmark runs, statistics and
the speed-of-light ceilings measured on this GPU."""
