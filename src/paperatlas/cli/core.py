"""Core commands: add, inspect, ls, show, stats, export, lists (see cli/__init__.py).

Thin: parse options, call `Atlas`, format with rich. Text from papers is printed as
rich `Text`, never as markup, so a `[bold]` in an abstract stays literal."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table
from rich.text import Text

from paperatlas.api import Atlas
from paperatlas.cli.common import (
    AreaOption,
    CodeOption,
    DbOption,
    DecisionOption,
    KindOption,
    ListOption,
    NewListOption,
    NewOption,
    StateOption,
    TagOption,
    TopicOption,
    UserError,
    app,
    check_output,
    console,
    err_console,
    filters_of_options,
    input_path,
    open_atlas,
    plural,
    require_list,
    stdout_text,
)
from paperatlas.errors import PaperatlasError
from paperatlas.printable import as_line
from paperatlas.results import PaperDetail

if TYPE_CHECKING:
    from paperatlas.results import AddReport, FileReport, ListStats

# `ls --limit`: far more rows than any atlas holds, and within SQLite's 64-bit integers
MAX_ROWS = 1_000_000_000

RecordsOption = Annotated[
    str | None,
    typer.Option(
        "--records",
        help="Where a Markdown/HTML/org/reST/text list keeps its papers, when the reader missed them: "
        "h1..h6 (heading sections of that level), li (list items), tr (table rows), br "
        "(<br>-separated groups), p, dt, or an HTML tag.class (li.pub, div.paper, .entry). "
        "add keeps it with the list: adding the list again reads it the same way.",
    ),
]


@app.command()
def add(
    files: Annotated[
        list[Path],
        typer.Argument(
            help="Paper lists: JSON/JSONL, CSV/TSV, BibTeX, RIS, EndNote, Zotero RDF, CSL-JSON, YAML, "
            "Markdown, HTML, org-mode, reST or text lists, folders of them (gzip ok).",
            show_default=False,
            parser=input_path,
        ),
    ],
    list_name: NewListOption = None,
    db: DbOption = None,
    no_enrich: Annotated[
        bool, typer.Option("--no-enrich", help="Skip extracting facts after adding.")
    ] = False,
    dry_run: Annotated[
        bool,
        typer.Option(
            "--dry-run", help="Read and match against the atlas, report what would change, store nothing."
        ),
    ] = False,
    records: RecordsOption = None,
) -> None:
    """Add paper lists to the atlas: deduplicated, merged with twins, one transaction per file.

    Prints per file the format read, the entries with titles / abstracts / authors / links,
    what was skipped and why, and warnings when the file seems to read badly. In a folder,
    links leading outside it, pipes and devices are skipped; records over the size limits
    (docs/formats.md) are skipped and counted."""
    if dry_run and not Path(db or Atlas.default_path()).exists():
        _dry_run_without_atlas(files, list_name, records)
        return
    atlas = open_atlas(db, create=not dry_run)
    report = atlas.add(
        files,
        list_name=list_name,
        progress=sys.stderr.isatty(),
        enrich=False,
        dry_run=dry_run,
        records=records,
    )
    _print_add_report(report, dry_run)
    # also finishes the facts an interrupted earlier run left (the store says what is pending)
    if not no_enrich and not dry_run and (report.added or report.merged or atlas.facts_pending()):
        try:
            atlas.enrich(progress=sys.stderr.isatty())
        except PaperatlasError as exc:  # the papers are stored; only the facts are missing
            err_console.print(
                Text(f"warning: papers stored, but facts were not extracted: {as_line(exc)}"),
                style="yellow",
                soft_wrap=True,
            )
    if any(not f.error for f in report.files):  # a failed file is its one error line alone
        console.print(
            Text(
                f"atlas {atlas.path}: {plural(atlas.stats().papers, 'paper')}"
                + (" (dry run: nothing stored)" if dry_run else "")
            ),
            style="dim",
        )
    _exit_on_errors(report, dry_run)


def _dry_run_without_atlas(files: list[Path], list_name: str | None, records: str | None = None) -> None:
    """`add --dry-run` before any atlas exists: match against an empty one in a temp dir."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        atlas = Atlas(Path(tmp) / "dry.db")
        report = atlas.add(files, list_name=list_name, enrich=False, dry_run=True, records=records)
        atlas.close()
    _print_add_report(report, True)
    console.print(Text("no atlas yet (dry run: nothing stored)"), style="dim")
    _exit_on_errors(report, True)


def _exit_on_errors(report: AddReport, dry_run: bool) -> None:
    for error in report.errors:
        note = "" if dry_run else " (nothing from this file was stored)"
        err_console.print(Text(f"error: {as_line(error)}{note}"), style="bold red", soft_wrap=True)
    if report.errors:
        raise typer.Exit(2)


def _print_read(f: FileReport) -> None:
    """What was read from one file: format, field counts, skips by reason, warnings."""
    console.print(
        Text(
            f"{as_line(f.path)} ({f.format or '?'}): {plural(f.stats.papers, 'paper')}: {f.stats.summary()}"
        ),
        soft_wrap=True,
    )
    for inner, stats in f.files.items():  # a folder: each file in it
        try:
            fmt = Atlas.file_format(inner)
        except Exception:
            fmt = "?"
        console.print(
            Text(f"  {as_line(inner)} ({fmt}): {plural(stats.papers, 'paper')}: {stats.summary()}"),
            soft_wrap=True,
        )
        for warning in stats.warnings():
            err_console.print(Text(as_line(f"warning: {inner}: {warning}")), style="yellow", soft_wrap=True)
    if f.skips.pattern:
        console.print(Text(f"  records: {f.skips.pattern}"), soft_wrap=True)
    if f.skipped:
        console.print(Text(f"  {f.skips.summary()}"), soft_wrap=True)
    for warning in [] if len(f.files) > 1 else f.warnings:
        err_console.print(Text(as_line(f"warning: {f.path}: {warning}")), style="yellow", soft_wrap=True)


def _joined_note(joined: int, list_name: str) -> str:
    return f" ({joined} now also in '{as_line(list_name)}')" if joined else ""


def _print_add_report(report: AddReport, dry_run: bool) -> None:
    verb = "would add" if dry_run else "added"
    for f in report.files:
        if f.error:
            continue
        _print_read(f)
        notes = [f"{f.near} near-duplicates"] if f.near else []
        if f.filled:
            notes.append(f"{f.filled} title-only gained an abstract")
        note = f" ({'; '.join(notes)})" if notes else ""
        console.print(
            Text(
                f"  -> list '{as_line(f.list_name)}': {verb} {f.added}, merged {f.merged}{note}, "
                f"unchanged {f.unchanged}{_joined_note(f.joined, f.list_name)}, skipped {f.skipped}"
            ),
            soft_wrap=True,
        )
    if len(report.files) > 1:
        console.print(
            Text(
                f"total: {verb} {report.added}, merged {report.merged}, "
                f"unchanged {report.unchanged}, skipped {report.skipped}"
            ),
            soft_wrap=True,
        )


@app.command()
def inspect(
    file: Annotated[
        Path,
        typer.Argument(
            help="A paper list in any format add reads.",
            show_default=False,
            parser=input_path,
        ),
    ],
    limit: Annotated[int, typer.Option("--limit", "-n", help="How many entries to show.", min=0)] = 10,
    records: RecordsOption = None,
) -> None:
    """Show how a file reads, without storing anything: format, the record pattern found
    (lists written by people), counts, skips, warnings, and its first entries as they would be
    stored."""
    try:
        found = Atlas.inspect(file, limit=limit, records=records)
    except PaperatlasError as exc:
        raise UserError(str(exc)) from None
    report, rows = found.report, found.papers
    _print_read(report)
    cells = []
    for row in rows:
        title = Text(row.get("title") or "")
        if not row["abstract"].strip():
            title.append(" [title only]", style="italic yellow")
        names = row["authors"]
        abstract = row["abstract"]
        links = [*row.get("urls", []), *(f"code: {u}" for u in row.get("code_urls") or [])]
        cells.append(
            {
                "id": Text(row["id"]),
                "title": title,
                "authors": Text(", ".join(names[:3]) + (f" +{len(names) - 3}" if len(names) > 3 else "")),
                "abstract": Text(abstract[:160] + ("…" if len(abstract) > 160 else "")),
                "links": Text("\n".join(links[:3]) + (f"\n+{len(links) - 3}" if len(links) > 3 else "")),
                "ids": Text("\n".join(f"{k}:{v}" for k, v in (row.get("identifiers") or {}).items())),
                "section": Text(row.get("section") or ""),
                "year": Text(str(row.get("year") or "")),
                "venue": Text(row.get("venue") or ""),
            }
        )
    table = Table(header_style="bold", show_lines=True)
    shown = [
        c
        for c in ("id", "title", "authors", "year", "venue", "abstract", "links", "ids", "section")
        if c in ("id", "title") or any(cell[c].plain for cell in cells)
    ]
    for column in shown:  # columns no entry fills are left out
        table.add_column(
            column,
            style={"id": "cyan", "abstract": "dim"}.get(column),
            ratio={"title": 3, "abstract": 3, "links": 2}.get(column, 1),
            overflow="fold",
        )
    for cell in cells:
        table.add_row(*(cell[c] for c in shown))
    console.print(table)
    console.print(
        Text(f"first {len(rows)} of {plural(report.stats.papers, 'paper')}; nothing stored"), style="dim"
    )


@app.command("ls")
def list_papers(
    list_name: ListOption = None,
    area: AreaOption = None,
    decision: DecisionOption = None,
    text: Annotated[str | None, typer.Option("--text", "-t", help="Substring of title or abstract.")] = None,
    kind: KindOption = None,
    has_code: CodeOption = None,
    tag: TagOption = None,
    state: StateOption = None,
    topic: TopicOption = None,
    section: Annotated[
        str | None,
        typer.Option("--section", "-s", help="Substring of the section (heading) the list put papers under."),
    ] = None,
    limit: Annotated[int, typer.Option(help="At most this many rows.", min=1, max=MAX_ROWS)] = 50,
    new: NewOption = False,
    db: DbOption = None,
) -> None:
    """List papers as a table."""
    atlas = open_atlas(db)
    require_list(atlas, list_name)
    if new and list_name is None:
        raise UserError("--new needs --list: papers are new to a list since you last saw it")
    filters = filters_of_options(list_name, area, kind, decision, has_code, tag, state)
    ids = atlas.new_papers(list_name) if new and list_name is not None else None
    if topic is not None:
        ids = papers_in_topics(atlas, topic, list_name, ids)
    rows = atlas.papers(filters, text=text, section=section, limit=limit + 1, ids=ids)
    more = len(rows) > limit
    rows = rows[:limit]
    table = Table(show_lines=False, header_style="bold")
    table.add_column("id", no_wrap=True, style="cyan")
    table.add_column("title", ratio=3)
    table.add_column("area", ratio=1)
    table.add_column("decision", no_wrap=True)
    table.add_column("kind", no_wrap=True)
    for row in rows:
        table.add_row(
            Text(row["id"]),
            _title_cell(row),
            _area_cell(row),
            Text(row.get("decision") or ""),
            Text(row.get("kind") or ""),
        )
    console.print(table)
    shown = plural(len(rows), "paper") + (f" (first {limit}; use --limit for more)" if more else "")
    console.print(Text(shown), style="dim")


def papers_in_topics(atlas: Atlas, topic: str, list_name: str | None, ids: list[str] | None) -> list[str]:
    """The papers of the map topics `--topic` names, among `ids` when given (a hint on
    stderr when `mine` names none: nothing followed or liked on the map)."""
    chosen = atlas.topics_named(topic, list_name, papers=True)
    if not chosen.topics:
        err_console.print(
            Text(
                "no topics of yours on the map yet: follow a topic (`paperatlas follow topic`) or like papers"
            ),
            style="yellow",
        )
    inside = set(chosen.paper_ids or ())
    return [pid for pid in ids if pid in inside] if ids is not None else sorted(inside)


def _title_cell(row: dict[str, Any]) -> Text:
    if row.get("title"):
        cell = Text(row["title"])
        if not (row.get("abstract") or "").strip():
            cell.append(" [title only]", style="italic yellow")
        return cell
    if row.get("display_title"):
        return Text(row["display_title"], style="italic")
    abstract = row.get("abstract") or ""
    return Text(abstract[:100] + ("…" if len(abstract) > 100 else ""), style="dim")


def _area_cell(row: dict[str, Any]) -> Text:
    if row.get("area"):
        return Text(row["area"])
    if row.get("predicted_area"):
        return Text(f"~{row['predicted_area']}", style="italic")  # predicted, not given
    return Text("")


@app.command()
def show(
    paper_id: Annotated[str, typer.Argument(metavar="ID", help="Paper id or a unique prefix of it.")],
    lang: Annotated[
        str, typer.Option("--lang", help="en, or zh: also the paper's Chinese card (a machine gloss).")
    ] = "en",
    db: DbOption = None,
) -> None:
    """Show one paper: every field, its lists and its extracted facts."""
    if lang not in ("en", "zh"):
        raise UserError(f"--lang must be en or zh, not {lang!r}")
    atlas = open_atlas(db)
    paper = atlas.paper(paper_id)
    if paper is None:
        raise UserError(f"no paper with id '{paper_id}' (or the prefix matches several; see 'paperatlas ls')")
    facts = paper.facts
    title = paper.get("title") or facts.get("display_title") or "(untitled)"
    console.print(Text(title, style="bold"))
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold cyan", no_wrap=True)
    grid.add_column()
    skip = {"title", "abstract", "extra", "facts"}
    for key, value in paper.items():
        if key not in skip and value not in (None, "", [], {}):
            grid.add_row(key, _render(value))
    for key, value in (paper.get("extra") or {}).items():
        if key != "abstract_final" and paper.get(key) != value:  # a field shown above once
            grid.add_row(key, _render(value))
    console.print(grid)
    console.print(Text("\nabstract", style="bold"))
    console.print(
        Text(paper["abstract"])
        if paper["abstract"].strip()
        else Text("(title only: the list this paper came from gives no abstract)", style="dim")
    )
    final = (paper.get("extra") or {}).get("abstract_final")
    if final and final != paper["abstract"]:
        console.print(Text("\nabstract (camera-ready)", style="bold"))
        console.print(Text(final))
    if facts:
        from paperatlas.cli.understand import render_facts

        console.print(Text("\nfacts", style="bold"))
        console.print(render_facts(facts))
    if lang == "zh":
        _show_zh_card(atlas, paper)


def _show_zh_card(atlas: Atlas, paper: PaperDetail) -> None:
    topic = (paper.topics or {}).get("topic") or {}
    card = atlas.zh_card(paper, topic=topic.get("label"))
    console.print(Text(f"\n中文卡片（{card.note}）", style="bold"))
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold cyan", no_wrap=True)
    grid.add_column()
    rows = [
        ("名称", card.name),
        ("类型", card.kind),
        ("研究领域", card.area),
        ("录用结果", card.decision),
        ("主题", card.topic),
        ("主要数字", card.number),
        ("主题词", "、".join(card.keyphrases)),
    ]
    for key, value in rows:
        if value:
            grid.add_row(key, Text(value))
    console.print(grid)


def _render(value: Any) -> Text:
    """Any fact or field as plain text: lists one item a line, dicts as key=value."""
    if isinstance(value, dict):
        return Text(", ".join(f"{k}={_plain(v)}" for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        if value and all(isinstance(v, (dict, list, tuple)) for v in value):
            return Text("\n".join(_render(v).plain for v in value))
        return Text("; ".join(_plain(v) for v in value))
    return Text(_plain(value))


def _plain(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.3g}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_plain(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}={_plain(v)}" for k, v in value.items()) + "}"
    return str(value)


@app.command()
def stats(list_name: ListOption = None, db: DbOption = None) -> None:
    """Per list: papers, papers with titles, counts by area and by decision."""
    atlas = open_atlas(db)
    require_list(atlas, list_name)
    names = [list_name] if list_name else atlas.lists()
    if not names:
        console.print("the atlas is empty: add a paper list with 'paperatlas add FILE'")
        return
    overview = Table(title="lists", header_style="bold")
    for column in ("list", "papers", "with title"):
        overview.add_column(column, justify="left" if column == "list" else "right")
    per_list: dict[str, ListStats] = {name: atlas.stats(name) for name in names}
    for name, s in per_list.items():
        overview.add_row(Text(name), str(s.papers), str(s.with_title))
    if not list_name:
        total = atlas.stats()
        overview.add_row(Text("all (deduplicated)", style="bold"), str(total.papers), str(total.with_title))
    console.print(overview)
    for name, s in per_list.items():
        for what, counts in (("area", s.by_area), ("decision", s.by_decision)):
            table = Table(title=f"{name}: by {what}", header_style="bold")
            table.add_column(what)
            table.add_column("papers", justify="right")
            for key, count in counts.items():
                table.add_row(Text(str(key)), str(count))
            console.print(table)


@app.command("lists")
def lists_command(db: DbOption = None) -> None:
    """The lists in the atlas with their sizes."""
    atlas = open_atlas(db)
    table = Table(header_style="bold")
    table.add_column("list")
    table.add_column("papers", justify="right")
    for name in atlas.lists():
        table.add_row(Text(name), str(atlas.stats(name).papers))
    console.print(table)


@app.command()
def export(
    fmt: Annotated[
        str,
        typer.Option(
            "--format",
            "-f",
            help="jsonl | csv | bibtex | ris | csl-json | markdown | markdown-folder (one .md file "
            "per paper with YAML front matter, for Obsidian: --output names the folder). BibTeX, RIS, "
            "CSL-JSON and the folder carry your notes and tags. In csv a text cell starting with "
            "= + - @ (a spreadsheet formula) is written with a leading '.",
        ),
    ] = "jsonl",
    list_name: ListOption = None,
    area: AreaOption = None,
    kind: KindOption = None,
    decision: DecisionOption = None,
    has_code: CodeOption = None,
    tag: TagOption = None,
    state: StateOption = None,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="File to write (default: stdout).")
    ] = None,
    collection: Annotated[
        str | None,
        typer.Option(
            "--collection", help="Only the liked papers of this collection (see `paperatlas collections`)."
        ),
    ] = None,
    query: Annotated[
        str | None, typer.Option("--query", "-q", help="Only the top hits of this search (see --top).")
    ] = None,
    top: Annotated[int, typer.Option("--top", help="How many search hits --query exports.")] = 100,
    db: DbOption = None,
) -> None:
    """Export papers (all, those the filters let through, a collection or a search result,
    narrowed by the filters) as JSON Lines, CSV, BibTeX, RIS, CSL-JSON, Markdown, or a folder
    of Markdown files."""
    from paperatlas.results import EXPORT_FORMATS

    if fmt not in EXPORT_FORMATS:
        raise UserError(f"unknown format '{fmt}' (choose from {', '.join(EXPORT_FORMATS)})")
    if fmt == "markdown-folder":
        if output is None:
            raise UserError(
                "--format markdown-folder writes one file per paper: name the folder with --output"
            )
        if output.exists() and not output.is_dir():
            raise UserError(f"--output {output}: is a file; markdown-folder writes into a folder")
        # an existing folder must be writable; a new one is made in a parent that is
        check_output(output / "paper.md" if output.is_dir() else output, "--output")
    else:
        check_output(output, "--output")
    atlas = open_atlas(db)
    require_list(atlas, list_name)
    filters = filters_of_options(list_name, area, kind, decision, has_code, tag, state)
    if output is None:
        count = atlas.export(fmt, stdout_text(), filters, collection=collection, query=query, query_k=top)
        sys.stdout.flush()
    else:
        count = atlas.export(fmt, output, filters, collection=collection, query=query, query_k=top)
        err_console.print(Text(f"exported {plural(count, 'paper')} to {output}"))
