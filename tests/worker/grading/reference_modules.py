"""A problem's reference.py loaded as a module, for the tests of the references themselves."""

from __future__ import annotations

from types import ModuleType

import torch

from worker.grading import problems


def load(slug: str) -> ModuleType:
    """The judge's own loader (problems.load_reference), by slug."""
    return problems.load_reference(problems.resolve(slug))


def inputs(
    mod: ModuleType, params: dict[str, int], kind: str, seed: int
) -> dict[str, torch.Tensor]:
    """The reference's ``generate`` on the CPU, from a fixed seed."""
    return mod.generate(params, kind, torch.Generator().manual_seed(seed), torch.device("cpu"))
