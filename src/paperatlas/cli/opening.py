"""`paperatlas open FILE...`: from paper lists to an atlas open in the browser, in one
command (see cli/__init__.py).

The fast steps run here (`Atlas.quick_start`: add, facts, the default model's vectors; the
facts of more than FACTS_BEFORE_SERVING papers are left to the background), then the web
app serves at once while `paperatlas enrich` (those facts), `paperatlas map` and
`paperatlas embed` (the heavier search models) run one after the other in background
processes tied to this one
(workers.tied_subprocess): they end with the server, however the server ends, and what
they finished stays for the next `open`, `map` or `embed` to resume from."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path
from typing import Annotated

import typer
from rich.text import Text

from paperatlas.cli.common import (
    DbOption,
    NewListOption,
    UserError,
    app,
    console,
    err_console,
    input_path,
    open_atlas,
    plural,
)
from paperatlas.printable import as_line
from paperatlas.results import QuickStart
from paperatlas.workers import stop_subprocess, tied_subprocess

BROWSER_DELAY = 1.0  # seconds after the server starts listening: its first page is ready
# papers lacking facts that are extracted before serving (in one process, well under a
# minute); more (a conference: minutes) are extracted in the background, keywords and the
# fast model answering searches meanwhile
FACTS_BEFORE_SERVING = 2000
MAP_STEP = ["map", "--topics", "0"]


@app.command("open")
def open_command(
    files: Annotated[
        list[Path],
        typer.Argument(
            help="Paper lists, as `add` reads them (any format, folders, gzip).",
            show_default=False,
            parser=input_path,
        ),
    ],
    list_name: NewListOption = None,
    port: Annotated[int, typer.Option(help="Port to listen on (0: any free one).", min=0, max=65535)] = 8765,
    no_browser: Annotated[
        bool, typer.Option("--no-browser", help="Serve without opening a browser window.")
    ] = False,
    db: DbOption = None,
) -> None:
    """Add paper lists and open them in the browser as an atlas: one command from files
    to a searchable map.

    Adds the files, extracts facts and computes the fast model's vectors, then serves at
    once: search answers with keywords and the fast model while the map, the heavier
    search models and the terms for Chinese queries (and the facts, past 2,000 papers
    without them) are computed in the background (the search page says what answers now
    and how long until the rest). A rerun skips every finished step, and does not read
    again a file that is as it was when its list was last added from it (same size,
    modification time and content). Serves on 127.0.0.1 only; Ctrl+C stops the server and
    the background work (kept for the next run)."""
    from paperatlas.web import server

    sock = server.listen("127.0.0.1", port)  # a busy port stops here, before any work
    try:
        atlas = open_atlas(db, create=True)
        progress = sys.stderr.isatty()
        done = atlas.quick_start(
            files, list_name=list_name, progress=progress, facts_now=FACTS_BEFORE_SERVING
        )
        for unread in (f for f in done.added.files if f.not_read):
            console.print(
                Text(
                    f"{as_line(unread.path)}: as when it was last added to "
                    f"'{as_line(unread.list_name)}', not read again"
                ),
                soft_wrap=True,
            )
        for error in done.added.errors:
            err_console.print(
                Text(f"error: {as_line(error)} (nothing from this file was stored)"), style="bold red"
            )
        status = atlas.search_status()
        if status.papers == 0:
            raise UserError(
                "no papers to open: "
                + ("see the errors above" if done.added.errors else "the files hold none")
            )
        path = atlas.path.resolve()
        facts = (
            f"facts of {done.enriched.enriched} extracted"
            if done.enriched is not None
            else f"facts of {done.facts_pending} to extract in the background"
        )
        console.print(
            Text(
                f"{plural(status.papers, 'paper')} ({done.added.added} new); {facts}, "
                f"vectors of {done.embedded.embedded} computed ({done.embedded.model})"
            ),
            soft_wrap=True,
        )
        background = background_steps(done, atlas.map_is_current(), status.pending)
        atlas.close()
    except BaseException:
        sock.close()
        raise
    url = f"http://127.0.0.1:{sock.getsockname()[1]}/"
    later = (
        (["the facts"] if ["enrich"] in background else [])
        + (["the map"] if MAP_STEP in background else [])
        + status.pending
    )
    console.print(
        Text(
            f"paperatlas: serving {path} at {url}  (search answers now; "
            + (f"computing {', '.join(later)} in the background; " if later else "")
            + "Ctrl+C stops)"
        ),
        style="bold",
        soft_wrap=True,
    )
    server.worker_environment(str(path), [], False, 1)
    steps = _Background(path, background) if background else None
    if not no_browser and sys.stdout.isatty():
        _open_browser_soon(url)
    try:
        if not server.run(sock, 1):
            raise typer.Exit(2)
    finally:
        if steps is not None:
            steps.stop()


def background_steps(done: QuickStart, map_current: bool, pending: list[str]) -> list[list[str]]:
    """The commands left for the background, in order: the facts `quick_start` left (the
    map's labels read them), the map, then the heavier search models."""
    steps = [] if done.enriched is not None else [["enrich"]]
    if not map_current:
        steps.append(MAP_STEP)
    if pending:
        steps.append(["embed"])
    return steps


class _Background:
    """`paperatlas` commands on the atlas, one after the other, each in a process tied to
    this one, started and waited for by a thread of its own (the parent-death signal
    follows the thread that starts a child, so that thread must outlive it)."""

    def __init__(self, db: Path, commands: list[list[str]]) -> None:
        self.commands = [[sys.executable, "-m", "paperatlas.cli", *c, "--db", str(db)] for c in commands]
        self.process: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()
        self._stopped = False
        self.thread = threading.Thread(target=self._run, name="paperatlas-background", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        for args in self.commands:
            with self._lock:
                if self._stopped:
                    return
                self.process = tied_subprocess(args)
            if self.process.wait() != 0:
                return  # it said why on stderr; the next step would meet the same

    def stop(self) -> None:
        with self._lock:
            self._stopped = True
            process = self.process
        if process is not None:
            stop_subprocess(process)
        self.thread.join(timeout=30)


def _open_browser_soon(url: str) -> None:
    """Open `url` in the user's browser once the server is listening (webbrowser runs the
    browser on its own; a machine without one shows nothing)."""
    import webbrowser

    timer = threading.Timer(BROWSER_DELAY, webbrowser.open, args=(url,))
    timer.daemon = True
    timer.start()
