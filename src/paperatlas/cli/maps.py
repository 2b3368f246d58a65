"""Map commands: `map` (build, show, export the atlas) and `serve` (the web app)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.text import Text

from paperatlas.api import Atlas
from paperatlas.cli.common import (
    DbOption,
    UserError,
    app,
    check_output,
    console,
    err_console,
    open_atlas,
    plural,
    require_list,
)


@app.command("map")
def map_command(
    list_name: Annotated[
        str | None,
        typer.Option("--list", "-l", help="Map only this list (default: every paper in the atlas)."),
    ] = None,
    png: Annotated[
        Path | None,
        typer.Option("--png", help="Write a publication-quality picture of the map.", show_default=False),
    ] = None,
    html: Annotated[
        Path | None,
        typer.Option(
            "--html", help="Write a self-contained interactive map (works offline).", show_default=False
        ),
    ] = None,
    model: Annotated[
        str | None, typer.Option(help="Embedding model to map with (default: the stored default).")
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Rebuild even if nothing changed.")] = False,
    topics: Annotated[int, typer.Option(help="Print this many broad topics.")] = 40,
    lang: Annotated[
        str,
        typer.Option(
            "--lang", help="Topic labels of the --html map: en, or zh (Chinese terms, a machine gloss)."
        ),
    ] = "en",
    db: DbOption = None,
) -> None:
    """Build the topic map (only when the list changed) and print its topics. Every list is
    placed on the reference (the field, ICLR 2026 unless `reference use` chose another); a
    list under 200 papers takes the field's topics as its own, each paper under a near
    topic whose label its text supports, else shown under its fine topic's label, else as
    its topic's "other" part. Each topic shows how many of its papers do not match its
    label (their title and abstract hold none of its words) and, on a short list, how many
    are shown under their fine topic's label."""
    check_output(png, "--png")
    check_output(html, "--html")
    if lang not in ("en", "zh"):
        raise UserError(f"--lang must be en or zh, not {lang!r}")
    atlas = open_atlas(db)
    require_list(atlas, list_name)
    if atlas.stats(list_name).papers == 0:
        raise UserError("no papers yet: run `paperatlas add FILE` first")
    progress = sys.stderr.isatty()
    atlas.ensure_vectors(model, progress, vocabulary=False)  # Chinese search builds its own when small
    stored = atlas.build_map(list_name=list_name, model=model, force=force, progress=progress)
    meta = stored.meta
    state = "built" if stored.built else "unchanged, reused"
    if meta.get("grouping") == "reference":  # a short list: placed on the field
        console.print(
            Text(
                f"{meta['papers']:,} papers placed on the field {meta['reference_title']} "
                f"({meta['reference_papers']:,} papers; reference {meta['reference']!r}; {state}): "
                f"{meta['broad_topics']} of its broad topics, {meta['fine_topics']} fine topics, "
                f"{meta['outliers']} far from every field topic (kept in the nearest)"
            )
        )
    else:
        console.print(
            Text(
                f"map of {meta['papers']:,} papers ({state}, model {stored.model}): "
                f"{meta['broad_topics']} broad topics, {meta['fine_topics']} fine topics, "
                f"outliers {meta['outliers']} ({meta['outlier_share']:.1%}, each kept in its nearest topic)"
                + (
                    f"; also placed on the field (reference {meta['reference']!r})"
                    if meta.get("reference")
                    else ""
                )
            )
        )
    for t in stored.broad_topics[:topics]:
        names = ", ".join(t["data"].get("names", [])[:3])
        other = t["data"].get("other")
        console.print(
            Text(
                f"  {t['size']:>6,}  {t['label']}"
                + (f"  [{other} not matching the label]" if other else "")
                + (
                    f"  [{t['data']['shown_fine']} shown under their fine topic's label]"
                    if t["data"].get("shown_fine")
                    else ""
                )
                + (f"  ({names})" if names else "")
            )
        )
    if png is not None:
        atlas.write_map_png(stored, png)
        console.print(Text(f"wrote {png}"))
    if html is not None:
        atlas.write_map_html(stored, html, lang=lang)
        console.print(Text(f"wrote {html} (open it in a browser; works offline)"))


@app.command()
def serve(
    host: Annotated[
        str,
        typer.Option(
            help="Address to listen on. 127.0.0.1 (default) = this machine only; any other "
            "needs --allow-host or --read-only."
        ),
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.", min=1, max=65535)] = 8765,
    workers: Annotated[
        int | None,
        typer.Option(
            help="Server processes (default: one per CPU core, at most 4; at most two per core "
            "and what free memory holds at ~160 MB each).",
            show_default=False,
        ),
    ] = None,
    allow_host: Annotated[
        list[str] | None,
        typer.Option(
            "--allow-host",
            metavar="NAME",
            help="Also answer requests addressed to this host name or address (repeatable); "
            "the app answers only 127.0.0.1, localhost and [::1] otherwise.",
            show_default=False,
        ),
    ] = None,
    read_only: Annotated[
        bool,
        typer.Option(
            "--read-only",
            help="Change and write nothing: likes are refused (403); no file is written beside the "
            "atlas, which is served as it was at the start.",
        ),
    ] = False,
    create: Annotated[
        bool, typer.Option("--create", help="Serve a new, empty atlas when --db names none yet.")
    ] = False,
    db: DbOption = None,
) -> None:
    """Start the web app: map, search, paper cards, topics.

    Answers only requests addressed to this machine (or an --allow-host name); likes change only from its own pages."""
    from paperatlas.web import server
    from paperatlas.web.app import default_workers
    from paperatlas.web.guard import normalise_host_name

    workers = default_workers() if workers is None else workers
    server.check_workers(workers)  # before anything starts: one line above the bound
    path = Path(db) if db is not None else Atlas.default_path()
    if not path.exists() and not create:
        raise UserError(f"no atlas at {path}; run paperatlas add first, or pass --create")
    hosts = []
    for name in allow_host or []:
        try:
            hosts.append(normalise_host_name(name))
        except ValueError:
            raise UserError(f"--allow-host {name!r}: not a host name or address") from None
    if not server.is_loopback(host):
        if not hosts and not read_only:
            raise UserError(
                f"--host {host} is reachable from other machines and this app has "
                f"no login: pass --read-only, or --allow-host NAME with the name "
                f"others will use to reach it (or both)"
            )
        if server.is_ip_literal(host) and not server.is_unspecified(host):
            hosts.append(normalise_host_name(host))  # its own address is no rebinding name
        err_console.print(
            Text(
                f"warning: --host {host}: anyone who can reach this machine can "
                f"{'read' if read_only else 'read and change'} the atlas (no login); "
                f"answering the host names {', '.join(hosts) or '(loopback only)'}"
            ),
            style="yellow",
        )
    atlas = Atlas(path, read_only=True if read_only else None, create=create)
    path = atlas.path.resolve()
    read_only = read_only or atlas.read_only
    atlas.close()
    sock = server.listen(host, port)  # a busy port stops here, before any worker starts
    shown = f"[{host}]" if ":" in host else host
    console.print(
        Text(
            f"paperatlas: serving {path} at http://{shown}:{sock.getsockname()[1]}/  "
            f"({plural(workers, 'worker')}"
            f"{'; read-only' if read_only else ''}; Ctrl+C stops)"
        ),
        style="bold",
        soft_wrap=True,
    )
    server.worker_environment(str(path), hosts, read_only, workers)
    if not server.run(sock, workers):
        raise UserError("the web app did not start (the reason is above)")
