"""What every command shares: the app, the --db option, opening the atlas, one-line errors.

Every failure a user can cause ends as one line on stderr and exit code 2: usage errors
(typer's usage line and message), errors in files and stores (PaperatlasError, StoreError),
SQLite errors of a damaged, locked or read-only atlas, files that cannot be written. SIGTERM
and SIGHUP end a command the way Ctrl-C does: open transactions roll back, worker
processes stop, finished work stays for the next run to resume from (exit 143)."""

from __future__ import annotations

import contextlib
import errno
import io
import os
import signal
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Annotated, Any, NoReturn, TextIO, cast

import typer

from paperatlas.api import Atlas
from paperatlas.filters import KINDS, STATES, Filters
from paperatlas.paper import json_text
from paperatlas.printable import as_line, file_name, for_terminal, json_for_terminal
from paperatlas.printable import console as safe_console

app = typer.Typer(
    name="paperatlas",
    help="Turn a conference paper list into a searchable, mapped, annotated atlas — offline.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
# Everything the CLI prints passes through these two: control characters and escape sequences
# from titles, abstracts and file names are stripped, and no string is read as rich markup.
console = safe_console()
err_console = safe_console(stderr=True)

DbOption = Annotated[
    Path | None,
    typer.Option(
        "--db",
        help="Atlas database (default: $PAPERATLAS_DB or .paperatlas/atlas.db).",
        envvar="PAPERATLAS_DB",
        show_default=False,
    ),
]
# `add` and `open`: the list the files go into
NewListOption = Annotated[
    str | None,
    typer.Option("--list", "-l", help="List name (default: each file's name without suffixes)."),
]


def one_of(*choices: str) -> Callable[[str | None], str | None]:
    """An option callback that lets only `choices` (or no value) through: anything else is
    a usage error (one line naming the option and the choices, exit 2)."""

    def check(value: str | None) -> str | None:
        if value is not None and value not in choices:
            raise typer.BadParameter(f"{value!r} is not one of {', '.join(choices)}")
        return value

    return check


# The paper filters (`paperatlas.Filters`) of every command that narrows papers: `ls`,
# `search`, `similar`, `recommend`, `export`, `digest`; `filters_of_options` makes them one
# value (`--topic`, of `ls` and `digest`, reads the map: `Atlas.topics_named`).
ListOption = Annotated[str | None, typer.Option("--list", "-l", help="Only papers of this list.")]
AreaOption = Annotated[
    str | None,
    typer.Option("--area", help="Only this research area (the list's, else the predicted one; exact)."),
]
KindOption = Annotated[
    str | None,
    typer.Option("--kind", help=f"Only this kind: {', '.join(KINDS)}.", callback=one_of(*KINDS)),
]
DecisionOption = Annotated[
    str | None,
    typer.Option("--decision", help="Only papers whose decision starts with this (e.g. Accept, Poster)."),
]
CodeOption = Annotated[
    bool | None,
    typer.Option(
        "--has-code/--no-code", help="Only papers with (or without) a code link.", show_default=False
    ),
]
TagOption = Annotated[str | None, typer.Option("--tag", help="Only papers with this tag.")]
StateOption = Annotated[
    str | None,
    typer.Option(
        "--state",
        help="Only papers in this state: read, skipped, saved (as marked), liked (in 'likes'), "
        "unread (neither read nor skipped).",
        callback=one_of(*STATES),
    ),
]


TopicOption = Annotated[
    str | None,
    typer.Option(
        "--topic",
        help="Only papers of map topics: 'mine' (the topics you follow and those of papers you "
        "liked) or a topic's label (see `paperatlas map`).",
    ),
]
NewOption = Annotated[
    bool,
    typer.Option(
        "--new",
        help="Only the list's papers added since you last marked it seen (`paperatlas seen LIST`).",
    ),
]


def filters_of_options(
    list_name: str | None = None,
    area: str | None = None,
    kind: str | None = None,
    decision: str | None = None,
    has_code: bool | None = None,
    tag: str | None = None,
    state: str | None = None,
) -> Filters:
    """The filter options of a command as one `Filters` (a bad value: one line, exit 2)."""
    return Filters.parse(
        list_name=list_name, area=area, kind=kind, decision=decision, has_code=has_code, tag=tag, state=state
    )


# `embed` and `enrich`: the Ray options (`--workers` is theirs: what an actor does differs)
RayOption = Annotated[
    bool,
    typer.Option(
        "--ray",
        # \\[: rich markup would read "[ray]" as a style and drop it
        help="Compute the batches on Ray (pip install 'paperatlas\\[ray]'): a local "
        "instance, or the cluster at --address.",
    ),
]
AddressOption = Annotated[
    str | None,
    typer.Option(
        "--address",
        help="With --ray: the cluster's head, HOST:PORT (from `ray start --head`) or 'auto'.",
        show_default=False,
    ),
]


class UserError(Exception):
    """An error the user can fix (bad file, unknown id, ...): printed as one line, exit 2."""


class Terminated(BaseException):
    """SIGTERM or SIGHUP arrived: unwinds like KeyboardInterrupt (transactions roll back,
    pools stop) but is not caught by code that handles Ctrl-C itself."""


_opened: dict[str, Path | None] = {"db": None}  # the atlas of this command, for messages


def open_atlas(db: Path | None, create: bool = False) -> Atlas:
    """The command's atlas. Only commands that bring papers in (`add`) create a missing
    one; the others say there is none. An atlas this process cannot write opens
    read-only (commands that write then fail with one line)."""
    _opened["db"] = Path(db) if db is not None else Atlas.default_path()
    return Atlas(db, create=create)


def require_list(atlas: Atlas, list_name: str | None) -> None:
    """A list named on the command line must exist (None: no list named, nothing to check)."""
    if list_name is not None and list_name not in atlas.lists():
        known = ", ".join(atlas.lists()) or "none yet"
        raise UserError(f"no list named '{list_name}' (lists: {known})")


def check_output(path: Path | None, option: str) -> None:
    """Refuse an output path that cannot be written before any work is done: a directory,
    a folder that does not exist, or one this user cannot write to (one line, exit 2)."""
    if path is None:
        return
    if path.is_dir():
        raise UserError(f"{option} {path}: is a directory; name a file to write")
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise UserError(f"{option} {path}: folder {parent} does not exist")
    if not os.access(parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise UserError(f"{option} {path}: not writable")


def input_path(value: str) -> Path:
    """A file argument as given: an empty one is refused here, since `Path("")` would be the
    current directory and `add ''` would read every file under it."""
    if not value.strip():
        raise typer.BadParameter("an empty file name")
    return Path(value)


class _TerminalText(io.TextIOBase):
    """stdout for a command that writes a whole document (an export, a digest) to a terminal:
    the text without what the terminal would act on. Redirected to a file, the bytes stay as
    stored (`stdout_text` gives sys.stdout itself)."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        sys.stdout.write(for_terminal(text))
        return len(text)

    def flush(self) -> None:
        sys.stdout.flush()


def stdout_text() -> TextIO:
    """Where a command writes a document on stdout: see `_TerminalText`."""
    return cast(TextIO, _TerminalText()) if sys.stdout.isatty() else sys.stdout


def write_json(value: Any, indent: int) -> None:
    """`value` as JSON on stdout (`--json`): the text as it is, but the characters a terminal
    would act on written as \\u escapes (the same JSON value)."""
    sys.stdout.write(json_for_terminal(json_text(value, ensure_ascii=False, indent=indent)) + "\n")


def plural(n: int, noun: str) -> str:
    """'1 paper', '3 papers' (nouns with a plain -s plural)."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _error_line(message: str) -> None:
    err_console.print(
        f"error: {as_line(message)}",
        highlight=False,
        markup=False,
        style="bold red",
        soft_wrap=True,
    )  # one line, however long


def _click_exceptions() -> tuple[type[BaseException], ...]:
    """The usage-error classes: typer 0.29 raises those of its bundled click
    (typer._click.exceptions), older typer those of click itself."""
    classes: list[type[BaseException]] = []
    try:
        from typer._click.exceptions import ClickException as Bundled

        classes.append(Bundled)
    except ImportError:
        pass
    try:
        from click.exceptions import ClickException

        classes.append(ClickException)
    except ImportError:
        pass
    return tuple(classes)


def _show_usage_error(exc: Any) -> None:
    """typer's own rendering of a usage error (usage line, hint, message), as in
    standalone mode; click's plain one where rich formatting is not available. `exc`: a
    ClickException of typer's bundled click or of click itself (two unrelated classes)."""
    try:
        from typer import rich_utils

        rich_utils.rich_format_error(exc)
    except Exception:
        exc.show()


def describe_sqlite_error(exc: sqlite3.Error, db: Path | None) -> str:
    """One line for an SQLite error the user can act on, naming the atlas file."""
    where = f"{db}: " if db is not None else ""
    text = str(exc)
    if len(text) > 160:  # SQLite quotes the undecodable text itself: keep the line short
        text = text[:160] + "…"
    if "malformed" in text or "not a database" in text or "corrupt" in text or "Could not decode" in text:
        return (
            f"{where}the atlas file is damaged ({text}); restore a copy, or add the "
            "lists again into a new atlas"
        )
    if "readonly" in text or "read-only" in text:
        return f"{where}the atlas is read-only ({text})"
    if "locked" in text or "busy" in text:
        return (
            f"{where}the atlas is busy: another paperatlas process is writing it "
            f"({text}); try again when it is done"
        )
    if "unable to open" in text:
        return f"{where}cannot open the atlas ({text})"
    if "disk is full" in text or "disk I/O error" in text:  # SQLite's words for ENOSPC, EFBIG, EIO
        return (
            f"{where}cannot write the atlas ({text}): is the disk full? What was stored before "
            "is kept; free some space and run the command again"
        )
    return f"{where}database error ({text})"


def _raise_terminated(signum: int, frame: FrameType | None) -> NoReturn:
    raise Terminated(signum)


def _catch_termination() -> dict[int, Any]:
    """SIGTERM/SIGHUP raise Terminated in the main thread; returns the old handlers."""
    old: dict[int, Any] = {}
    if sys.platform == "win32":
        return old
    import threading

    if threading.current_thread() is not threading.main_thread():
        return old
    for sig in (signal.SIGTERM, signal.SIGHUP):
        with contextlib.suppress(ValueError, OSError):
            old[sig] = signal.signal(sig, _raise_terminated)
    return old


def _undecodable_argument(args: list[str]) -> str | None:
    """The first argument (shown with its odd bytes as \\xNN) that is not UTF-8 text, except a
    path that exists: a file may have any name, but a list name, a query or an option's value
    is stored or compared as text."""
    for arg in args:
        if file_name(arg) != arg and not os.path.lexists(arg):
            return file_name(arg)
    return None


INTERRUPTED = 130  # the exit code of a command stopped by Ctrl-C (128 + SIGINT)


def _say_interrupted() -> None:
    err_console.print(
        "interrupted: finished work is kept; run the same command again to resume", style="yellow"
    )


def run_app(typer_app: typer.Typer) -> int:
    """Run the CLI; turn every error a user can cause into one line on stderr, exit 2."""
    from paperatlas.errors import PaperatlasError

    _opened["db"] = None
    if bad := _undecodable_argument(sys.argv[1:]):
        _error_line(f"argument '{bad}' is not valid UTF-8 text")
        return 2
    old_handlers = _catch_termination()
    try:
        # click returns the code of typer.Exit (instead of raising it) when not standalone
        code = typer_app(standalone_mode=False, prog_name="paperatlas")
    except (UserError, PaperatlasError) as exc:
        _error_line(str(exc))
        return 2
    except sqlite3.Error as exc:
        _error_line(describe_sqlite_error(exc, _opened["db"]))
        return 2
    except Terminated:
        err_console.print(
            "terminated: finished work is kept; run the same command again to resume", style="yellow"
        )
        return 143
    except KeyboardInterrupt:
        _say_interrupted()
        return INTERRUPTED
    except typer.Exit as exc:
        return exc.exit_code
    except typer.Abort:
        return 1
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 1
    except BrokenPipeError:  # `paperatlas ls | head`: the reader left; nothing to say
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return 1
    except OSError as exc:  # a file the command could not write or read: permissions, disk
        name = exc.filename if exc.filename is not None else ""
        text = str(exc.strerror or exc)
        if exc.errno in (errno.ENOSPC, errno.EFBIG, errno.EDQUOT):
            text += ": is the disk full? The atlas is as it was; free some space and run the command again"
        _error_line(f"{name}: {text}" if name else text)
        return 2
    except Exception as exc:
        if isinstance(exc, _click_exceptions()):  # usage errors: typer's message, exit 2
            _show_usage_error(exc)
            return getattr(exc, "exit_code", 2)
        raise
    finally:
        for sig, handler in old_handlers.items():
            signal.signal(sig, handler)
    if code == INTERRUPTED:  # typer catches Ctrl-C itself and returns this code, silently
        _say_interrupted()
    return code if isinstance(code, int) else 0
