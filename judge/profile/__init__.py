"""Profile and sanitize: Nsight Compute and compute-sanitizer feedback on a submission (#22).

Neither changes a verdict or a rank. ``profiler`` runs a submission once, on the problem's first
benchmark case, in a dedicated runner started under ``ncu`` in the grading sandbox; ``metrics``
reads ncu's CSV pages into per-kernel figures, ``roofline`` places them against the judge's
measured ceilings, and ``hints`` turns them into three plain-language hints. ``sanitize`` re-runs
a failing case under ``compute-sanitizer`` (``sanitizer`` parses what it prints); on the CPU,
``bounds`` checks every memory access of Triton's interpreter against the launch's tensors.
``tools`` finds the two programs and says when a worker cannot use them; ``report`` holds the
typed results, ``artifact`` reads files back from the sandbox's work folder safely, and
``instrument`` is the runner's side (NVTX range, exact-size private buffers).
"""
