"""Vector commands: embed, models, train-areas (see cli/__init__.py)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text

from paperatlas.cli.common import DbOption, UserError, app, console, open_atlas


@app.command()
def embed(
    model: Annotated[
        str | None,
        typer.Option(
            "--model",
            "-m",
            help="Embedding back end (see `paperatlas models`; default: static).",
            show_default=False,
        ),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Recompute every vector (lsa: refit).")] = False,
    ray: Annotated[
        bool,
        typer.Option(
            "--ray",
            help="Compute the batches on Ray (pip install 'paperatlas[ray]'): a local "
            "instance, or the cluster at --address.",
        ),
    ] = False,
    address: Annotated[
        str | None,
        typer.Option(
            "--address",
            help="With --ray: the cluster's head, HOST:PORT (from `ray start --head`) or 'auto'.",
            show_default=False,
        ),
    ] = None,
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
    from paperatlas.embed import available_backends, embed_store

    if model is not None and model not in available_backends():
        raise UserError(f"unknown model '{model}' (models: {', '.join(available_backends())})")
    if (address or workers) and not ray:
        raise UserError("--address and --workers go with --ray")
    atlas = open_atlas(db)
    if ray:
        from paperatlas.embed.distributed import embed_store_ray

        result = embed_store_ray(
            atlas.store,
            model=model,
            address=address,
            workers=workers,
            batch_size=batch_size,
            progress=sys.stderr.isatty(),
            force=force,
        )
    else:
        result = embed_store(
            atlas.store, model=model, progress=sys.stderr.isatty(), force=force, batch_size=batch_size
        )
    console.print(
        Text(
            f"{result['model']}: embedded {result['embedded']}, unchanged "
            f"{result['skipped']} of {result['total']} papers"
        )
    )
    if model is None:  # the default run also readies Chinese queries (crosslingual.py)
        from paperatlas.errors import PaperatlasError
        from paperatlas.search.translate import build_vocabulary

        try:
            vocab = build_vocabulary(atlas.store, progress=sys.stderr.isatty(), force=force)
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
                    f"Chinese queries: {vocab['terms']} English terms of this "
                    f"atlas ({vocab['embedded']} newly embedded)"
                )
            )


@app.command("models")
def models() -> None:
    """List the embedding back ends."""
    from paperatlas.embed import DEFAULT_MODEL, available_backends

    table = Table("model", "what")
    for name, what in available_backends().items():
        table.add_row(name + (" (default)" if name == DEFAULT_MODEL else ""), what)
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
    from paperatlas.enrich.areas import train_from_file

    info = train_from_file(data, out=out, include_held_out=all_rows, progress=sys.stderr.isatty())
    console.print(Text(f"trained on {info['papers']} papers, {info['areas']} areas -> {info['path']}"))
