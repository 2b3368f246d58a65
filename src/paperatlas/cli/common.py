"""What every command shares: the app, the --db option, opening the atlas, one-line errors."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console

from paperatlas.api import Atlas

app = typer.Typer(
    name="paperatlas",
    help="Turn a conference paper list into a searchable, mapped, annotated atlas — offline.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console()
err_console = Console(stderr=True)

DbOption = Annotated[
    Optional[Path],
    typer.Option("--db", help="Atlas database (default: $PAPERATLAS_DB or .paperatlas/atlas.db).",
                 envvar="PAPERATLAS_DB", show_default=False),
]


class UserError(Exception):
    """An error the user can fix (bad file, unknown id, ...): printed as one line, exit 2."""


def open_atlas(db: Path | None) -> Atlas:
    return Atlas(db)


def fail(message: str, code: int = 2) -> None:
    err_console.print(f"[bold red]error:[/] {message}", highlight=False, markup=True)
    raise typer.Exit(code)


def run_app(typer_app: typer.Typer) -> int:
    """Run the CLI; turn user errors into one line on stderr and exit code 2."""
    from paperatlas.errors import PaperatlasError
    from paperatlas.store import StoreError

    try:
        # click returns the code of typer.Exit (instead of raising it) when not standalone
        code = typer_app(standalone_mode=False)
    except (UserError, PaperatlasError, StoreError) as exc:
        err_console.print(f"error: {exc}", highlight=False, markup=False, style="bold red",
                          soft_wrap=True)  # one line, however long
        return 2
    except KeyboardInterrupt:
        err_console.print("interrupted: finished work is kept; run the command again to resume",
                          style="yellow")
        return 130
    except typer.Exit as exc:
        return exc.exit_code
    except typer.Abort:
        return 1
    except SystemExit as exc:  # click's own usage errors end this way
        return exc.code if isinstance(exc.code, int) else 1
    except Exception as exc:  # click usage errors in standalone_mode=False
        import click
        if isinstance(exc, click.ClickException):
            exc.show()
            return 2
        raise
    return code if isinstance(code, int) else 0
