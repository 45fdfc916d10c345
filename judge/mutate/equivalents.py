"""A problem's equivalent mutants: ``mutants.toml`` in its folder, id → one-line reason.

```toml
[equivalent]
"triton_simple.py:drop_mask:13:1" = "a load past the end reads the guard band; those lanes are never stored"
```

A mutant listed there that survives is *equivalent*: no input can tell it from the sample, so
it counts for nothing in the score. The ids are ``sample:operator:line:ordinal``
(base.Mutant.id); an entry whose mutant no longer exists, or whose mutant was killed, is
reported, so that the list does not go stale.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from judge.problem.schema import ProblemError

FILE = "mutants.toml"


def load(folder: Path) -> dict[str, str]:
    """The folder's equivalent mutants (empty when it has no ``mutants.toml``)."""
    path = folder / FILE
    if not path.is_file():
        return {}
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise ProblemError(path, "", f"not valid TOML: {e}") from e
    extra = sorted(set(raw) - {"equivalent"})
    if extra:
        raise ProblemError(path, extra[0], "unknown field (the file holds [equivalent] only)")
    table = raw.get("equivalent", {})
    if not isinstance(table, dict):
        raise ProblemError(path, "equivalent", "expected a table of mutant id = reason")
    out: dict[str, str] = {}
    for key, reason in table.items():
        if key.count(":") != 3:
            raise ProblemError(
                path, f"equivalent.{key}", "expected an id 'sample:operator:line:ordinal'"
            )
        if not isinstance(reason, str) or not reason.strip():
            raise ProblemError(
                path, f"equivalent.{key}", "expected a one-line reason why no test can kill it"
            )
        out[key] = reason.strip()
    return out
