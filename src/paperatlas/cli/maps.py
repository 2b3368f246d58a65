"""Map commands: `map` (build, show, export the atlas) and `serve` (the web app)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.text import Text

from paperatlas.cli.common import DbOption, UserError, app, console, open_atlas


@app.command("map")
def map_command(
    list_name: Annotated[Optional[str], typer.Option(
        "--list", "-l", help="Map only this list (default: every paper in the atlas).")] = None,
    png: Annotated[Optional[Path], typer.Option(
        "--png", help="Write a publication-quality picture of the map.", show_default=False)] = None,
    html: Annotated[Optional[Path], typer.Option(
        "--html", help="Write a self-contained interactive map (works offline).",
        show_default=False)] = None,
    model: Annotated[Optional[str], typer.Option(
        help="Embedding model to map with (default: the stored default).")] = None,
    force: Annotated[bool, typer.Option("--force", help="Rebuild even if nothing changed.")] = False,
    topics: Annotated[int, typer.Option(help="Print this many broad topics.")] = 40,
    db: DbOption = None,
) -> None:
    """Build the topic map (only when the list changed) and print its topics."""
    atlas = open_atlas(db)
    if list_name is not None and list_name not in atlas.lists():
        raise UserError(f"no list named '{list_name}' (lists: {', '.join(atlas.lists()) or 'none yet'})")
    if atlas.stats(list_name)["papers"] == 0:
        raise UserError("no papers yet: run `paperatlas add FILE` first")
    progress = sys.stderr.isatty()
    _ensure_vectors(atlas, model, progress)
    stored = atlas.build_map(list_name=list_name, model=model, force=force, progress=progress)
    meta = stored["meta"]
    state = "built" if stored["built"] else "unchanged, reused"
    console.print(Text(
        f"map of {meta['papers']:,} papers ({state}, model {stored['model']}): "
        f"{meta['broad_topics']} broad topics, {meta['fine_topics']} fine topics, "
        f"outliers {meta['outliers']} ({meta['outlier_share']:.1%}, each kept in its nearest topic)"))
    broad = sorted((t for t in stored["topics"] if t["level"] == 0), key=lambda t: -t["size"])
    for t in broad[:topics]:
        names = ", ".join(t["data"].get("names", [])[:3])
        console.print(Text(f"  {t['size']:>6,}  {t['label']}" + (f"  ({names})" if names else "")))
    if png is not None:
        from paperatlas.mapplot import write_png
        write_png(stored, atlas.store, png)
        console.print(Text(f"wrote {png}"))
    if html is not None:
        from paperatlas.mapplot import write_html
        write_html(stored, atlas.store, html)
        console.print(Text(f"wrote {html} (open it in a browser; works offline)"))


def _ensure_vectors(atlas, model: str | None, progress: bool) -> None:
    """Embed the papers that have no vector yet for the model the map will use (embedding
    skips unchanged papers, so this is cheap when everything is embedded)."""
    from paperatlas.atlas import pick_model

    if model is None and not atlas.store.vector_models():
        atlas.embed(progress=progress)
        return
    target = model or pick_model(atlas.store, atlas.store.all_ids(), None)
    if len(atlas.store.vector_state(target)) < atlas.stats()["papers"]:
        atlas.embed(model=target, progress=progress)


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on (127.0.0.1 = this machine only).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8765,
    workers: Annotated[Optional[int], typer.Option(
        help="Server processes (default: one per CPU core, at most 4).",
        show_default=False)] = None,
    db: DbOption = None,
) -> None:
    """Start the web app: map, search, paper cards, topics."""
    import os

    import uvicorn

    from paperatlas.web.app import default_workers

    atlas = open_atlas(db)
    path = atlas.path.resolve()
    atlas.close()
    if workers is not None and workers < 1:
        raise UserError("--workers must be 1 or more")
    workers = workers or default_workers()
    shown = "127.0.0.1" if host in ("127.0.0.1", "localhost") else host
    console.print(Text(f"paperatlas: serving {path} at http://{shown}:{port}/  "
                       f"({workers} worker{'s' if workers > 1 else ''}; Ctrl+C stops)"),
                  style="bold")
    # Each worker process builds its own app from $PAPERATLAS_DB. No access log: writing a
    # line per request costs more than a cached page.
    os.environ["PAPERATLAS_DB"] = str(path)
    # asyncio's own loop and TCP_NODELAY: see web/serving.py, NoDelayHttpToolsProtocol
    uvicorn.run("paperatlas.web.app:app_from_env", factory=True, host=host, port=port,
                workers=workers if workers > 1 else None, log_level="warning",
                access_log=False, loop="asyncio",
                http="paperatlas.web.serving:NoDelayHttpToolsProtocol")
