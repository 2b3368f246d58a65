"""`backup FILE` (the whole atlas, copied as of one commit) and `restore FILE` (a copy put
back in the atlas's place; the old one kept as ATLAS.bak). Thin: parse, call `Atlas`, print.
The personal-data file (`personal export|import`) is what carries a person's own data
between different atlases; these copy one atlas whole."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.text import Text

from paperatlas.api import Atlas
from paperatlas.cli.common import DbOption, app, check_output, err_console, open_atlas


@app.command()
def backup(
    path: Annotated[
        Path, typer.Argument(metavar="FILE", help="The copy to write (an SQLite file).", show_default=False)
    ],
    db: DbOption = None,
) -> None:
    """Copy the whole atlas (papers, lists, maps, vectors, everything you kept) to FILE, as of
    one commit: safe while a server reads it or `add` writes it. A FILE there already is
    replaced only if it is an atlas."""
    check_output(path, "FILE")
    atlas = open_atlas(db)
    size = atlas.backup(path)
    err_console.print(Text(f"wrote {path}: a copy of {atlas.path} ({size / 1e6:,.1f} MB)"))


@app.command()
def restore(
    path: Annotated[Path, typer.Argument(metavar="FILE", help="A copy `backup` wrote.", show_default=False)],
    force: Annotated[
        bool, typer.Option("--force", help="Replace the atlas there (it is kept as ATLAS.bak).")
    ] = False,
    db: DbOption = None,
) -> None:
    """Put the atlas copy FILE in place of the atlas. FILE is checked first (an atlas, not
    damaged, of a schema this paperatlas opens); an atlas already there is replaced only
    with --force, and kept beside it as ATLAS.bak."""
    target = Path(db) if db is not None else Atlas.default_path()
    kept = Atlas.restore(path, target, force=force)
    line = f"restored {target} from {path}" + (f" (the atlas it replaced is kept as {kept})" if kept else "")
    err_console.print(Text(line))
