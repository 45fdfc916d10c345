"""The authoring commands: ``problems new`` (skeleton.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from judge.problem.schema import ProblemError

# Lines are not wrapped at the terminal's width (a path or a diff stays whole); tables are.
out = Console(soft_wrap=True)
err = Console(stderr=True, soft_wrap=True)


def new(
    slug: Annotated[str, typer.Argument(help="The new problem's slug (the folder's name)")],
    root: Annotated[
        Path | None, typer.Option(help="The problems folder (default: the one configured)")
    ] = None,
    starters: Annotated[
        bool,
        typer.Option(
            "--starters", help="Only write starter/ again, from an existing folder's signature"
        ),
    ] = False,
) -> None:
    """Write a new problem folder's skeleton: every field explained, ready to fill in."""
    from judge import skeleton
    from judge.problem import loader

    base = root or loader.problems_dir()
    try:
        if starters:
            written = skeleton.write_starters(loader.load_problem(base / slug))
        else:
            written = skeleton.create(base, slug)
    except ProblemError as e:
        err.print(f"[red]cannot write it:[/] {e}")
        raise typer.Exit(2) from e
    for path in written:
        out.print(f"wrote {path}", highlight=False)
    if not starters:
        out.print("\n[bold]Still to do[/] (each place is marked TODO):")
        for item in skeleton.TODO_LIST:
            out.print(f"  - {item}", highlight=False)
