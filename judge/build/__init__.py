"""Building submissions: nvcc in the sandbox, Triton's ahead-of-time compiles, the caches that
make a resubmission compile nothing, and the bytecode check of the runners' big imports."""
