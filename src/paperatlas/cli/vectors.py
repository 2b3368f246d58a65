"""Vector commands: embed, models, train-areas (see cli/__init__.py)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text

from paperatlas.api import Atlas
from paperatlas.cli.common import AddressOption, DbOption, RayOption, UserError, app, console, open_atlas
from paperatlas.errors import PaperatlasError
from paperatlas.results import EmbedReport


@app.command()
def embed(
    model: Annotated[
        str | None,
        typer.Option(
            "--model",
            "-m",
            help=(
                "Embedding back end (see `paperatlas models`). Default: every model search "
                "uses (static, minilm-int8, use-multilingual), then the English terms for "
                "Chinese queries."
            ),
            show_default=False,
        ),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Recompute every vector (lsa: refit).")] = False,
    ray: RayOption = False,
    address: AddressOption = None,
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers",
            min=1,
            help="With --ray: embedding actors (default: one per CPU of the cluster).",
            show_default=False,
        ),
    ] = None,
    batch_size: Annotated[
        int,
        typer.Option(
            "--batch-size", min=1, help="Papers per batch (one commit each; on Ray, one task each)."
        ),
    ] = 256,
    db: DbOption = None,
) -> None:
    """Compute the vectors of every paper (once per model; interrupt and rerun to resume)."""
    known = [m.name for m in Atlas.models()]
    if model is not None and model not in known:
        raise UserError(f"unknown model '{model}' (models: {', '.join(known)})")
    if (address or workers) and not ray:
        raise UserError("--address and --workers go with --ray")
    atlas = open_atlas(db)
    progress = sys.stderr.isatty()

    def report(result: EmbedReport) -> None:
        console.print(
            Text(
                f"{result.model}: embedded {result.embedded}, unchanged {result.skipped} of {result.total} papers"
            )
        )

    # every model search fuses (or the one named), each kept as it finishes (a rerun
    # resumes the next), then what Chinese queries need (search/translate.py; a failure
    # there is a note below)
    atlas.embed_for_search(
        progress=progress,
        force=force,
        batch_size=batch_size,
        ray=ray,
        address=address,
        workers=workers,
        vocabulary=False,
        on_model=report,
        models=None if model is None else [model],
    )
    if model is not None:
        return
    try:
        vocab = atlas.build_vocabulary(progress=progress, force=force)
    except (PaperatlasError, ImportError) as exc:  # the vectors above are kept
        console.print(
            Text(
                f"Chinese queries: the multilingual model is not usable here "
                f"({exc}); they will match only the glossary's terms"
            )
        )
    else:
        console.print(
            Text(
                f"Chinese queries: {vocab.terms} English terms of this atlas ({vocab.embedded} newly embedded)"
            )
        )


@app.command("models")
def models() -> None:
    """List the embedding back ends."""
    table = Table("model", "what")
    for m in Atlas.models():
        tags = [tag for tag, on in (("default", m.default), ("search", m.search)) if on]
        table.add_row(m.name + (f" ({', '.join(tags)})" if tags else ""), m.description)
    console.print(table)


@app.command("train-areas")
def train_areas(
    data: Annotated[
        Path,
        typer.Argument(
            help="Papers with a primary area: ICLR 2026 JSONL(.gz) rows with title, abstract, primary_area."
        ),
    ],
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            help="Model file to write (default: the one shipped in the package).",
            show_default=False,
        ),
    ] = None,
    all_rows: Annotated[
        bool,
        typer.Option(
            "--all",
            help="Also train on the held-out evaluation papers (for the shipped model, after benchmarking).",
        ),
    ] = False,
) -> None:
    """Train the research-area classifier from labelled papers and save it."""
    info = Atlas.train_areas(data, out=out, include_held_out=all_rows, progress=sys.stderr.isatty())
    console.print(Text(f"trained on {info.papers} papers, {info.areas} areas -> {info.path}"))
