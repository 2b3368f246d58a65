"""`reference` commands: which big list is the field every other list is placed on.

paperatlas reference ls                   the references this atlas can use, * = in use
paperatlas reference build --list NAME    make a big list of the atlas the reference
paperatlas reference use NAME             switch (iclr2026 = the shipped ICLR 2026 one)
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer
from rich.text import Text

from paperatlas.cli.common import DbOption, app, console, open_atlas, require_list

reference_app = typer.Typer(
    help="The field lists are placed on: list, build from a big list, switch.", no_args_is_help=True
)
app.add_typer(reference_app, name="reference")


@reference_app.command("ls")
def reference_ls(db: DbOption = None) -> None:
    """The references this atlas can use (* = the one in use)."""
    for ref in open_atlas(db).references():
        mark = "*" if ref.in_use else " "
        console.print(
            Text(
                f"{mark} {ref.name}: {ref.title}, {ref.papers:,} papers, "
                f"{ref.broad_topics} broad / {ref.fine_topics} fine topics "
                f"({ref.model} vectors)"
            )
        )


@reference_app.command("build")
def reference_build(
    list_name: Annotated[str, typer.Option("--list", "-l", help="The big list (200+ papers) to use.")],
    name: Annotated[
        str | None, typer.Option(help="Name of the reference (default: the list's).", show_default=False)
    ] = None,
    db: DbOption = None,
) -> None:
    """Make a big list of the atlas the reference every list is placed on (and use it)."""
    atlas = open_atlas(db)
    require_list(atlas, list_name)
    progress = sys.stderr.isatty()
    atlas.ensure_vectors(None, progress)
    ref = atlas.build_reference(list_name, name=name, progress=progress)
    console.print(
        Text(
            f"reference {ref.name!r} built from {ref.papers:,} papers of "
            f"{list_name!r}: {ref.broad_topics} broad and "
            f"{ref.fine_topics} fine topics; now in use (maps are placed on it "
            f"when next built)"
        )
    )


@reference_app.command("use")
def reference_use(
    name: Annotated[
        str, typer.Argument(help="A reference from `reference ls` (iclr2026 is the shipped one).")
    ],
    db: DbOption = None,
) -> None:
    """Switch the reference lists are placed on."""
    open_atlas(db).use_reference(name)
    console.print(Text(f"reference in use: {name} (maps are rebuilt on it when next built)"))
