"""`paperatlas enrich`: per-paper facts (name, kind, numbers, links, gist, title, keyphrases)."""

from __future__ import annotations

from typing import Annotated

import typer

from paperatlas.cli.common import DbOption, app, console, open_atlas


@app.command()
def enrich(
    db: DbOption = None,
    force: Annotated[bool, typer.Option("--force", help="Redo every paper, not only new or changed ones.")] = False,
) -> None:
    """Extract each paper's name, kind, headline numbers, links, gist, display title and keyphrases."""
    atlas = open_atlas(db)
    try:
        counts = atlas.enrich(force=force, progress=True)
    finally:
        atlas.close()
    console.print(
        f"enriched {counts['enriched']} of {counts['total']} papers "
        f"({counts['skipped']} unchanged, skipped); "
        f"{counts['named']} named, {counts['with_code']} with code links"
        + (f", {counts['with_area']} with a predicted area" if counts.get("with_area") else ""),
        highlight=False)
