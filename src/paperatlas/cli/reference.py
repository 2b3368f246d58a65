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

from paperatlas.cli.common import DbOption, UserError, app, console, open_atlas

reference_app = typer.Typer(
    help="The field lists are placed on: list, build from a big list, switch.", no_args_is_help=True
)
app.add_typer(reference_app, name="reference")


@reference_app.command("ls")
def reference_ls(db: DbOption = None) -> None:
    """The references this atlas can use (* = the one in use)."""
    from paperatlas.atlas import reference

    atlas = open_atlas(db)
    current = reference.in_use_name(atlas.store)
    for name in reference.names(atlas.store):
        ref = reference.load(atlas.store, name)
        mark = "*" if name == current else " "
        console.print(
            Text(
                f"{mark} {name}: {ref.meta.get('title', name)}, {len(ref.xy):,} papers, "
                f"{len(ref.broad_labels)} broad / {len(ref.fine_labels)} fine topics "
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
    from paperatlas.atlas import reference
    from paperatlas.atlas.reference_build import build_reference
    from paperatlas.cli.maps import _ensure_vectors

    atlas = open_atlas(db)
    if list_name not in atlas.lists():
        raise UserError(f"no list named '{list_name}' (lists: {', '.join(atlas.lists()) or 'none yet'})")
    progress = sys.stderr.isatty()
    _ensure_vectors(atlas, None, progress)
    ref = build_reference(atlas.store, list_name, name=name or list_name, progress=progress)
    reference.save(atlas.store, ref)
    console.print(
        Text(
            f"reference {ref.name!r} built from {len(ref.xy):,} papers of "
            f"{list_name!r}: {len(ref.broad_labels)} broad and "
            f"{len(ref.fine_labels)} fine topics; now in use (maps are placed on it "
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
    from paperatlas.atlas import reference

    atlas = open_atlas(db)
    reference.use(atlas.store, name)
    console.print(Text(f"reference in use: {name} (maps are rebuilt on it when next built)"))
