"""Every rank's buffers of one case, reachable from every rank's runner.

On the CPU a buffer is a file (sandbox/buffers.py) created in the grading's own folder, which
no runner sees, and hard-linked into each rank's work folder under the same unguessable name:
each runner maps the same pages through the only folder its sandbox shows it, and nothing else
of another rank's folder. Created outside the ranks' folders, a file cannot be swapped for a
link to a host file before it is linked in (a runner can list and rename what is in its own).
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from judge.problem.schema import Case, Problem
from judge.sandbox import buffers


@dataclass
class RankBuffers:
    """One case's buffers: ``of[r][name]`` is rank r's buffer of argument ``name``."""

    of: list[dict[str, buffers.SharedBuffer]]
    links: list[Path] = field(default_factory=list)  # every file and link made for them

    def peers(self) -> list[dict[str, dict[str, Any]]]:
        """The ``peers`` of a bind message: every rank's descriptors, in signature order."""
        return [{name: b.descriptor() for name, b in bufs.items()} for bufs in self.of]

    def free(self) -> None:
        for bufs in self.of:
            for b in bufs.values():
                b.free()
        for path in self.links:  # never followed: unlink removes a planted link, not its target
            with contextlib.suppress(FileNotFoundError):
                os.unlink(path)
        self.links = []


def alloc(
    problem: Problem, case: Case, dev: str, own: Path, ranks: list[Path], key: str
) -> RankBuffers:
    """Every rank's buffers for ``case``, made in ``own`` (the referee's folder) and, on the
    CPU, linked into each rank's folder in ``ranks``."""
    if dev != "cpu":
        raise NotImplementedError(
            "peer buffers on GPUs (CUDA IPC across devices): docs/multi-gpu.md"
        )
    out = RankBuffers([])
    try:
        for r in range(len(ranks)):
            bufs: dict[str, buffers.SharedBuffer] = {}
            out.of.append(bufs)
            for a in problem.args:
                if not a.is_tensor:
                    continue
                shape = problem.shape(a, case.params)
                b = bufs[a.name] = buffers.create(shape, a.dtype, dev, own, f"{key}_r{r}_{a.name}")
                name = b.descriptor()["path"]
                out.links.append(own / name)
                for folder in ranks:
                    os.link(own / name, folder / name, follow_symlinks=False)
                    out.links.append(folder / name)
    except BaseException:
        out.free()
        raise
    return out
