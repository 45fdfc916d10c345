"""A problem's reference.py loaded as a module, for the tests of the references themselves."""

from __future__ import annotations

from types import ModuleType

import torch

from judge.problem import loader


def load(slug: str) -> ModuleType:
    """The judge's own loader (loader.load_reference), by slug."""
    return loader.load_reference(loader.resolve(slug))


def inputs(
    mod: ModuleType, params: dict[str, int], kind: str, seed: int
) -> dict[str, torch.Tensor]:
    """The reference's ``generate`` on the CPU, from a fixed seed."""
    return mod.generate(params, kind, torch.Generator().manual_seed(seed), torch.device("cpu"))
