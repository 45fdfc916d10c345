"""The ``kerneldojo`` command: the judge's commands (judge/cli.py) and the web's (app/cli.py).

The web's commands are added only where the web stack is installed: a GPU host with the judge
alone still runs ``kerneldojo grade`` and ``kerneldojo problems check``.
"""

from __future__ import annotations

from judge.cli import app


def _register_web() -> None:
    try:
        from app.cli import register
    except ImportError:  # the judge core runs on GPU hosts without the web stack
        return
    register(app)


_register_web()


def main() -> None:
    app()


if __name__ == "__main__":
    main()
