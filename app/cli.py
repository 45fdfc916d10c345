"""The web side of the ``kerneldojo`` command: ``serve``, ``worker``, ``admin create``, ``submit``.

``worker/cli.py`` (the judge's CLI) calls ``register(app)``; ``python -m app.cli`` runs these
commands on their own.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Annotated, Any

import typer

from app.classes.cli import class_app
from app.compete import cli as compete_cli
from app.social import cli as solutions_cli
from judge import languages
from judge.device import gpu_kind

log = logging.getLogger("kerneldojo")


def _logging(level: str = "INFO") -> None:
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("alembic").setLevel(logging.WARNING)


def _die_with_parent() -> None:
    """In the worker child: get SIGTERM when ``serve`` exits, however it exits (uvicorn
    re-raises the signal that stopped it, so a ``finally`` alone would not run)."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except OSError:
        pass


def worker_argv(kind: str, name: str, loglevel: str = "INFO", embedded: bool = False) -> list[str]:
    # The worker started by ``serve`` on a learner's machine (often a root container): Celery's
    # warning about running as root is noise there, since submissions run in the sandbox.
    # (-W takes a message prefix: a category outside the builtins is not importable that early.)
    # Its start-up banner (config, queues, tasks) is noise there too: --quiet drops it, and
    # serve's own lines say where the database, the broker and the queue are. Logging (INFO and
    # up, errors included) is unchanged.
    python_quiet = ["-W", "ignore:You're running the worker with superuser"] if embedded else []
    celery_quiet = ["--quiet"] if embedded else []
    return [
        sys.executable,
        *python_quiet,
        "-m",
        "celery",
        *celery_quiet,
        "-A",
        "app.queue",
        "worker",
        "-Q",
        kind,
        "-n",
        f"{name}@%h",
        "--concurrency",
        "1",
        "--pool",
        "prefork",
        "--loglevel",
        loglevel,
        "--without-gossip",
        "--without-mingle",
        "--without-heartbeat",
    ]


def serve(
    host: Annotated[str, typer.Option(envvar="HOST", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(envvar="PORT", help="Port to listen on.")] = 8000,
    worker: Annotated[
        bool, typer.Option(help="Start a Celery worker alongside (the embedded default).")
    ] = True,
    workers: Annotated[
        int,
        typer.Option(
            "--workers",
            envvar="WEB_WORKERS",
            min=1,
            help="Web server processes (uvicorn workers). One process serves Python on one core "
            "at a time (the GIL); on a class server give it one per core "
            "(benchmarks/README.md, 'Web under load').",
        ),
    ] = 1,
) -> None:
    """Run the web app (migrating the database first) and, by default, a worker alongside."""
    _logging()
    kind = gpu_kind()
    os.environ["KERNELDOJO_GPU_KIND"] = kind  # the web app and its worker agree on the queue
    from app.core import secret_key
    from app.core.config import get_settings
    from app.core.db import migrate

    settings = get_settings()
    try:
        key = secret_key.key_for(settings, host)
    except secret_key.SecretKeyError as e:
        raise SystemExit(f"refusing to serve on {host} with the example SECRET_KEY: {e}") from e
    if key is not None:
        # Through the environment, so that every web process (--workers) reads the same key.
        os.environ["SECRET_KEY"] = key
        get_settings.cache_clear()
        settings = get_settings()
        log.warning(
            "no SECRET_KEY set: serving on %s with the key generated in %s",
            host,
            secret_key.key_path(settings),
        )
    migrate(settings.database_url)
    log.info(
        "database: %s; broker: %s; grading on: %s",
        settings.database_url.split("@")[-1],
        "redis" if settings.REDIS_URL else f"filesystem ({settings.broker_folder})",
        kind,
    )
    proc = None
    if worker:
        if not settings.REDIS_URL:
            from app.queue import make_celery

            make_celery(settings)  # creates the broker folders before the worker polls them
        proc = subprocess.Popen(
            worker_argv(kind, f"embedded-{kind}", embedded=True),
            # Celery writes only its notices to stdout ("worker: Warm shutdown (MainProcess)",
            # beside stop_worker's own line); its logging, errors included, goes to stderr.
            stdout=subprocess.DEVNULL,
            start_new_session=True,
            preexec_fn=_die_with_parent,  # no threads yet at this point
        )
        log.info("worker started (pid %d) on queue %r", proc.pid, kind)
    try:
        import uvicorn

        from app.main import create_app

        line = ready_line(host, port)
        if workers > 1:
            _announce_when_listening(host, port, line)
            # Each process builds its own app from the same environment (and runs its own
            # sweeper: sweeping is idempotent, a duplicate re-send finds the row claimed).
            uvicorn.run(
                "app.main:create_app",
                factory=True,
                workers=workers,
                host=host,
                port=port,
                log_level="info",
            )
        else:
            if not _serve_one(create_app(settings), host, port, line):
                raise SystemExit(3)  # as uvicorn.run does
    finally:
        if proc is not None and proc.poll() is None:
            stop_worker(proc)


def ready_line(host: str, port: int) -> str:
    """The line ``serve`` prints once it listens: the address to open in a browser."""
    wildcard = host in ("0.0.0.0", "::", "")
    shown = "127.0.0.1" if wildcard else f"[{host}]" if ":" in host else host
    every = " (and on this machine's other addresses)" if wildcard else ""
    return f"KernelDojo is ready at http://{shown}:{port}{every}. Ctrl-C stops it."


def _serve_one(app: Any, host: str, port: int, line: str) -> bool:
    """``uvicorn.run`` in one process, which prints ``line`` once it listens (uvicorn's own
    "running on" is one log line among Celery's); False when it never started (the address
    taken, a failed start-up)."""
    import uvicorn

    class ReadyServer(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            if self.started:
                typer.echo(line)

    server = ReadyServer(uvicorn.Config(app, host=host, port=port, log_level="info"))
    server.run()
    return server.started


def _announce_when_listening(host: str, port: int, line: str) -> None:
    """With several web processes uvicorn's supervisor binds the socket: the line is printed
    when it accepts a connection."""
    target = "127.0.0.1" if host in ("0.0.0.0", "") else "::1" if host == "::" else host

    def wait() -> None:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), socket.create_connection((target, port), 1):
                typer.echo(line)
                return
            time.sleep(0.2)

    threading.Thread(target=wait, name="ready-line", daemon=True).start()


def stop_worker(proc: subprocess.Popen[bytes], grace_s: float = 20.0) -> None:
    """Celery's warm shutdown: SIGTERM to its main process only, which lets the grading in
    progress finish (a SIGTERM to its pool process would cut it, logged as an ERROR); after
    ``grace_s``, or at a second Ctrl-C, the whole process group is killed. A submission cut
    that way is re-queued by the sweeper at the next start."""
    log.info("stopping the worker (up to %.0f s for a grading in progress)", grace_s)
    try:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=grace_s)
    except (subprocess.TimeoutExpired, KeyboardInterrupt):
        log.warning("the worker did not stop: killed (a grading it held is re-queued at start)")
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def worker(
    queue: Annotated[
        str, typer.Option(help="Queue (GPU kind) to take submissions from; default: this host's.")
    ] = "",
    name: Annotated[str, typer.Option(help="Worker name (hostname is appended).")] = "",
    loglevel: Annotated[str, typer.Option()] = "INFO",
    gpu: Annotated[
        int | None,
        typer.Option(
            min=0,
            help="Use only this GPU of the host (nvidia-smi's index): start one worker per GPU.",
        ),
    ] = None,
) -> None:
    """A Celery worker that grades submissions from the queue of this host's GPU kind."""
    kind = queue or gpu_kind()
    os.environ["KERNELDOJO_GPU_KIND"] = kind
    default_name = f"worker-{kind}"
    if gpu is not None:
        from judge.device import pin_gpu

        pin_gpu(gpu)
        default_name += f"-gpu{gpu}"
    argv = worker_argv(kind, name or default_name, loglevel)
    os.execv(argv[0], argv)


admin_app = typer.Typer(help="Instructor accounts.", no_args_is_help=True)


@admin_app.command("create")
def admin_create(
    username: Annotated[str, typer.Option(prompt=True, envvar="KERNELDOJO_ADMIN_USERNAME")],
    password: Annotated[
        str,
        typer.Option(
            prompt=True,
            hide_input=True,
            confirmation_prompt=True,
            envvar="KERNELDOJO_ADMIN_PASSWORD",
        ),
    ],
) -> None:
    """Create an admin (or make an existing user one, with this password).

    Non-interactive from the environment (KERNELDOJO_ADMIN_USERNAME, KERNELDOJO_ADMIN_PASSWORD):
    the web container runs it at each start, so the environment's password wins.
    """
    from sqlmodel import Session

    from app.accounts import create_admin
    from app.core.config import get_settings
    from app.core.db import make_engine, migrate

    settings = get_settings()
    migrate(settings.database_url)
    with Session(make_engine(settings.database_url)) as s:
        try:
            user = create_admin(s, username, password)
        except ValueError as e:
            typer.echo(f"error: {e}", err=True)
            raise typer.Exit(2) from e
    typer.echo(f"admin {user.username!r} is ready")


_NAMES = " or ".join(languages.names())
_SUFFIXES = ", ".join(f"{lang.suffix} ({lang.label})" for lang in languages.all())


def submit(
    problem: Annotated[str, typer.Argument(help="Problem slug, e.g. vector-add.")],
    file: Annotated[
        Path, typer.Argument(exists=True, dir_okay=False, help=f"A source file: {_SUFFIXES}.")
    ],
    server: Annotated[
        str,
        typer.Option(
            envvar="KERNELDOJO_SERVER",
            help="The KernelDojo server; default: http://127.0.0.1:$PORT (PORT as for "
            "`make serve`, else 8000).",
        ),
    ] = "",
    token: Annotated[
        str, typer.Option(envvar="KERNELDOJO_TOKEN", help="Personal API token (Settings → Tokens).")
    ] = "",
    language: Annotated[
        str,
        typer.Option(
            help=f"{_NAMES}; default from the file (a '# language:' line, its imports, its suffix)."
        ),
    ] = "",
    run: Annotated[bool, typer.Option("--run", help="Tests only (not ranked).")] = False,
    mode: Annotated[
        str,
        typer.Option(
            help="submit, run, profile (Nsight Compute on a GPU) or sanitize; --run is --mode run"
        ),
    ] = "",
    gpu: Annotated[str, typer.Option(help="GPU kind; default: the server's first.")] = "",
) -> None:
    """Submit a solution, stream its progress, print the result."""
    from app.submit_client import submit_and_follow

    source = file.read_text(encoding="utf-8")
    inferred = languages.infer(file.name, source)
    lang = language or (inferred.name if inferred else "")
    code = submit_and_follow(
        server or default_server(),
        token,
        problem,
        source,
        lang,
        mode or ("run" if run else "submit"),
        gpu or None,
    )
    raise typer.Exit(code)


def default_server() -> str:
    """Where ``make serve`` (``kerneldojo serve``) listens by default: HOST and PORT from the
    environment, a wildcard address reached through the loopback."""
    host = os.environ.get("HOST", "").strip() or "127.0.0.1"
    if host in ("0.0.0.0", "::", "[::]"):
        host = "127.0.0.1"
    elif ":" in host and not host.startswith("["):
        host = f"[{host}]"  # an IPv6 address in a URL
    return f"http://{host}:{os.environ.get('PORT', '').strip() or 8000}"


def register(cli: typer.Typer) -> None:
    """Add the web commands to the ``kerneldojo`` CLI."""
    cli.command()(serve)
    cli.command()(worker)
    cli.command()(submit)
    cli.add_typer(admin_app, name="admin")
    cli.add_typer(class_app, name="class")
    cli.add_typer(solutions_cli.build(default_server), name="solutions")
    contest_cmds, rating_cmds = compete_cli.build(default_server)
    cli.add_typer(contest_cmds, name="contest")
    cli.add_typer(rating_cmds, name="rating")


def main() -> None:
    cli = typer.Typer(help="KernelDojo web commands.", no_args_is_help=True)
    register(cli)
    cli()


if __name__ == "__main__":
    main()
