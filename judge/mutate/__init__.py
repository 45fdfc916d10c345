"""Mutation testing of a problem's tests: ``kerneldojo problems mutate`` (docs/mutation.md).

base.py names a mutant and builds it from an operator's edit; python_ops.py (by ``ast``) and
cuda_ops.py (by masked tokens) hold the operators; equivalents.py reads a problem's
``mutants.toml``; run.py grades the mutants side by side and scores the tests.
"""
