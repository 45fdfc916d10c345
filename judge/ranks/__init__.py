"""Problems that span GPUs (``gpus = N`` in problem.toml): one sandboxed runner per rank, peer
buffers shared between them, tests run one rank at a time between barriers. docs/multi-gpu.md."""
