"""The learning path: problems grouped into tracks, in order, with what a learner does next.

Pure functions over the loaded problems and the set of slugs a learner has solved, so the
Learn page (app/pages/learn.py) and the problem list's track filter read one definition.
A problem is *ready* when every prerequisite is solved, *solved* when the learner has an
accepted submission, else it *waits* for the prerequisites it names. Nothing is locked: the
order is advice, and a learner may open any problem.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from judge.problem.schema import TRACKS, Problem

OTHER = ""  # the key of the group of problems without a track
OTHER_LABEL = "More problems"
# One line under each track's heading on the Learn page: what the track is for.
TRACK_BLURBS = {
    "foundations": "The first kernels: elementwise work, reductions, softmax, tiled matmul and "
    "flash attention.",
    "parallel-patterns": "The building blocks of parallel programs: scans, histograms, sorting, "
    "stencils and sparse work.",
    "llm-kernels": "The kernels inside a large language model's forward pass, in the "
    "precisions models run in: norms, activations, rotary embeddings, attention and GEMMs.",
}
State = Literal["solved", "ready", "waiting"]


@dataclass(frozen=True)
class Step:
    problem: Problem
    state: State
    missing: tuple[Problem, ...] = ()  # unsolved prerequisites (known problems only)
    prerequisites: tuple[Problem, ...] = ()

    @property
    def missing_slugs(self) -> set[str]:
        return {p.slug for p in self.missing}

    @property
    def track_label(self) -> str:
        return track_label(self.problem.track or OTHER)


@dataclass
class Track:
    key: str
    label: str
    steps: list[Step] = field(default_factory=list)

    @property
    def blurb(self) -> str:
        return TRACK_BLURBS.get(self.key, "")

    @property
    def solved(self) -> int:
        return sum(s.state == "solved" for s in self.steps)


@dataclass(frozen=True)
class Path:
    tracks: list[Track]
    next_step: Step | None  # the first ready, unsolved problem in track order; None: all done

    @property
    def total(self) -> int:
        return sum(len(t.steps) for t in self.tracks)

    @property
    def solved(self) -> int:
        return sum(t.solved for t in self.tracks)


def track_label(key: str) -> str:
    return TRACKS.get(key, OTHER_LABEL)


def ordered(problems: list[Problem]) -> list[Problem]:
    """Track by track (TRACKS' order, then problems without a track), by order within each."""
    rank = {key: i for i, key in enumerate(TRACKS)}
    return sorted(problems, key=lambda p: (rank.get(p.track or OTHER, len(rank)), p.order, p.slug))


def build(problems: list[Problem], solved: set[str]) -> Path:
    """The tracks with each problem's state for a learner who solved ``solved``."""
    by_slug = {p.slug: p for p in problems}
    tracks: dict[str, Track] = {}
    for p in ordered(problems):
        key = p.track or OTHER
        track = tracks.setdefault(key, Track(key, track_label(key)))
        prereqs = tuple(by_slug[s] for s in p.prerequisites if s in by_slug)
        missing = tuple(q for q in prereqs if q.slug not in solved)
        state: State = "solved" if p.slug in solved else ("waiting" if missing else "ready")
        track.steps.append(Step(p, state, missing, prereqs))
    steps = [s for t in tracks.values() for s in t.steps]
    next_step = next((s for s in steps if s.state == "ready"), None)
    return Path(list(tracks.values()), next_step)


def by_track(problems: list[Problem]) -> list[tuple[str, list[Problem]]]:
    """(track label, its problems) in the Learn page's order: the leaderboard's problem picker
    groups its entries so, rather than showing one wall of buttons."""
    groups: dict[str, list[Problem]] = {}
    for p in ordered(problems):
        groups.setdefault(track_label(p.track or OTHER), []).append(p)
    return list(groups.items())
