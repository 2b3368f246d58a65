"""`paperatlas enrich`: per-paper facts (name, kind, numbers, links, gist, title, keyphrases),
and `render_facts`, the readable form `show` can print them in."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.table import Table
from rich.text import Text

from paperatlas.cli.common import DbOption, app, console, open_atlas


@app.command()
def enrich(
    db: DbOption = None,
    force: Annotated[
        bool, typer.Option("--force", help="Redo every paper, not only new or changed ones.")
    ] = False,
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
        highlight=False,
    )
    if counts.get("area_problem"):
        console.print(Text(f"areas not predicted: {counts['area_problem']}", style="yellow"))


def render_facts(facts: dict[str, Any]) -> Table:
    """A two-column grid of a paper's facts, one line each, as a reader wants them:
    "kind  benchmark (also: dataset)", "numbers  up to 69% attribute-level violations · ...".
    All values go in as plain Text, so nothing in an abstract is read as rich markup."""
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold magenta", no_wrap=True)
    grid.add_column()

    def row(label: str, value: str | None) -> None:
        if value:
            grid.add_row(label, Text(value))

    names = facts.get("names") or []
    row("name", facts.get("name"))
    if len(names) > 1:
        row("also names", ", ".join(names[1:]))
    kind = facts.get("kind")
    if kind:
        secondary = facts.get("kinds") or []
        row("kind", kind + (f" (also: {', '.join(secondary)})" if secondary else ""))
    area = facts.get("predicted_area")
    if isinstance(area, dict) and area.get("label"):
        from paperatlas.enrich.areas import area_label, top3_text

        shown = area_label(area)  # "A or B" when the top two are a near-tie
        row("area (predicted)", shown if area.get("tie") else f"{shown} ({area.get('prob', 0):.0%})")
        row("area top 3", top3_text(area))
    row("gist", facts.get("gist"))
    from paperatlas.enrich.numbers import describe

    numbers = [
        describe(n) + (" (setup)" if n.get("role") == "setup" else "") for n in facts.get("numbers") or []
    ]
    row("numbers", " · ".join(numbers))
    for link in facts.get("links") or []:
        row(link.get("type", "link"), link.get("url"))
    row("keyphrases", ", ".join(facts.get("keyphrases") or []))
    return grid
