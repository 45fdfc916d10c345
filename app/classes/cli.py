"""``kerneldojo class ...``: the server-side commands of class mode.

``gradebook CLASS [--csv]`` prints a class's gradebook (CLASS: its id or exact name) as a
table, or as the same CSV the web serves; ``list`` lists the classes; ``instructor USERNAME``
grants (``--revoke``: takes away) the instructor role. They read the database the server
uses (``DATABASE_URL``, or the SQLite file under ``DATA_DIR``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

class_app = typer.Typer(help="Classes: gradebooks, instructors.", no_args_is_help=True)


def _engine() -> Engine:
    from app.core.config import get_settings
    from app.core.db import make_engine, migrate

    settings = get_settings()
    migrate(settings.database_url)
    return make_engine(settings.database_url)


@class_app.command("gradebook")
def gradebook(
    course: Annotated[str, typer.Argument(metavar="CLASS", help="The class's id or exact name.")],
    as_csv: Annotated[
        bool, typer.Option("--csv", help="CSV on stdout, as the web serves it.")
    ] = False,
) -> None:
    """Print a class's gradebook: students x problems (verdict, best time, score, late), totals."""
    from rich.console import Console
    from rich.table import Table
    from sqlmodel import Session

    from app.classes import export, grades, service

    with Session(_engine()) as s:
        try:
            found = service.find_course(s, course)
        except service.ClassError as e:
            typer.echo(f"error: {e}", err=True)
            raise typer.Exit(2) from e
        book = grades.build(s, found)
    if as_csv:
        typer.echo(export.to_csv(book), nl=False)
        return
    table = Table(title=f"{found.name} ({found.term or 'no term'}), on {found.gpu_kind}")
    table.add_column("student")
    for c in book.columns:
        table.add_column(c.label, justify="right")
    table.add_column("total", justify="right")
    for r in book.rows:
        cells = []
        for c in book.columns:
            cell = r.cells[c.key]
            late = " late" if cell.late else ""
            cells.append(f"{cell.score:g}/{cell.points:g} {cell.verdict or '-'}{late}")
        table.add_row(r.user.username, *cells, f"{r.total:g}/{book.out_of:g}")
    Console().print(table)


@class_app.command("list")
def list_classes() -> None:
    """Every class: id, name, term, GPU kind, students."""
    from sqlmodel import Session, select

    from app.classes import service
    from app.classes.models import Course

    with Session(_engine()) as s:
        rows = s.exec(select(Course).order_by(Course.id)).all()  # type: ignore[arg-type]
        if not rows:
            typer.echo("no classes yet")
        for c in rows:
            n = len(service.students(s, c.id or 0))
            typer.echo(f"{c.id}\t{c.name}\t{c.term}\t{c.gpu_kind}\t{n} students")


@class_app.command("instructor")
def instructor(
    username: Annotated[str, typer.Argument(help="An existing user.")],
    revoke: Annotated[bool, typer.Option("--revoke", help="Take the role away.")] = False,
) -> None:
    """Let a user create and run classes (no server administration)."""
    from sqlmodel import Session

    from app.classes import service

    with Session(_engine()) as s:
        try:
            who = service.set_instructor(s, username, not revoke)
        except service.ClassError as e:
            typer.echo(f"error: {e}", err=True)
            raise typer.Exit(2) from e
    typer.echo(f"{who.username} is {'now' if who.is_instructor else 'no longer'} an instructor")
