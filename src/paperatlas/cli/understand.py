"""`paperatlas enrich`: per-paper facts (name, kind, numbers, links, gist, title, keyphrases),
and `render_facts`, the readable form `show` can print them in."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.table import Table
from rich.text import Text

from paperatlas.api import Atlas
from paperatlas.cli.common import AddressOption, DbOption, RayOption, UserError, app, console, open_atlas


@app.command()
def enrich(
    db: DbOption = None,
    force: Annotated[
        bool, typer.Option("--force", help="Redo every paper, not only new or changed ones.")
    ] = False,
    ray: RayOption = False,
    address: AddressOption = None,
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers",
            min=1,
            help="With --ray: extracting actors (default: one per CPU of the cluster).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Extract each paper's name, kind, headline numbers, links, gist, display title and keyphrases
    (interrupt and rerun to resume)."""
    if (address or workers) and not ray:
        raise UserError("--address and --workers go with --ray")
    atlas = open_atlas(db)
    try:
        counts = atlas.enrich(force=force, progress=True, ray=ray, address=address, workers=workers)
    finally:
        atlas.close()
    console.print(
        f"enriched {counts.enriched} of {counts.total} papers "
        f"({counts.skipped} unchanged, skipped); "
        f"{counts.named} named, {counts.with_code} with code links"
        + (f", {counts.with_area} with a predicted area" if counts.with_area else ""),
        highlight=False,
    )
    if counts.area_problem:
        console.print(Text(f"areas not predicted: {counts.area_problem}", style="yellow"))


def render_facts(facts: dict[str, Any]) -> Table:
    """A two-column grid of a paper's facts, one line each, as a reader wants them:
    "kind  benchmark (also: dataset)", "numbers  up to 69% attribute-level violations · ...".
    All values go in as plain Text, so nothing in an abstract is read as rich markup."""
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold magenta", no_wrap=True)
    grid.add_column()
    for row in Atlas.fact_rows(facts):
        grid.add_row(row.label, Text(row.value))
    return grid
