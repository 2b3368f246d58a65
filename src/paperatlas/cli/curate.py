"""Take-home commands: like, unlike, dislike, collections, recommend, digest, compare.

Thin: parse options, call `Atlas`, print. Paper text is printed as rich `Text`, never
as markup."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table
from rich.text import Text

from paperatlas.cli.common import (
    AreaOption,
    CodeOption,
    DbOption,
    DecisionOption,
    KindOption,
    ListOption,
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
    open_atlas,
    plural,
    require_list,
    stdout_text,
    write_json,
)

if TYPE_CHECKING:
    from paperatlas.results import Comparison

IdsArgument = Annotated[
    list[str], typer.Argument(metavar="ID...", help="Paper ids or unique prefixes.", show_default=False)
]


def _say(message: str) -> None:
    err_console.print(Text(message))


@app.command()
def like(
    ids: IdsArgument,
    into: Annotated[str, typer.Option("--into", help="Collection to put them in.")] = "likes",
    db: DbOption = None,
) -> None:
    """Like papers (into the 'likes' collection, or a named one): recommendations learn from them."""
    done = open_atlas(db).like(ids, collection=into, value=1)
    _say(f"liked {plural(len(done), 'paper')} in '{into}': {', '.join(done)}")


@app.command()
def dislike(
    ids: IdsArgument,
    into: Annotated[
        str, typer.Option("--into", help="Collection whose recommendations should avoid them.")
    ] = "likes",
    db: DbOption = None,
) -> None:
    """Mark papers as not wanted: recommendations for the collection steer away from them."""
    done = open_atlas(db).dislike(ids, collection=into)
    _say(f"disliked {plural(len(done), 'paper')} in '{into}': {', '.join(done)}")


@app.command()
def unlike(
    ids: IdsArgument,
    from_: Annotated[str, typer.Option("--from", help="Collection to remove them from.")] = "likes",
    db: DbOption = None,
) -> None:
    """Remove likes (or dislikes) from a collection."""
    done = open_atlas(db).unlike(ids, collection=from_)
    if not done:
        _say(f"none of these papers was marked in '{from_}'")
    else:
        _say(f"removed {plural(len(done), 'mark')} from '{from_}': {', '.join(done)}")


@app.command()
def collections(db: DbOption = None) -> None:
    """List collections with their numbers of liked and disliked papers."""
    found = open_atlas(db).collections()
    if not found:
        _say("no collections yet: `paperatlas like ID…` starts 'likes'")
        return
    table = Table(header_style="bold")
    table.add_column("collection")
    table.add_column("liked", justify="right")
    table.add_column("disliked", justify="right")
    for c in found:
        table.add_row(Text(c.name), str(c.liked), str(c.disliked))
    console.print(table)


@app.command()
def recommend(
    collection: Annotated[
        str, typer.Option("--collection", "-c", help="Collection to learn from.")
    ] = "likes",
    k: Annotated[int, typer.Option("--k", "-k", help="How many papers to recommend.")] = 30,
    list_name: ListOption = None,
    area: AreaOption = None,
    kind: KindOption = None,
    decision: DecisionOption = None,
    has_code: CodeOption = None,
    tag: TagOption = None,
    state: StateOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
    db: DbOption = None,
) -> None:
    """Recommend unseen papers like the liked ones (their words and every model's vectors),
    each with its reasons."""
    atlas = open_atlas(db)
    require_list(atlas, list_name)
    filters = filters_of_options(list_name, area, kind, decision, has_code, tag, state)
    picks = atlas.recommend(collection=collection, k=k, filters=filters)
    if as_json:
        write_json(picks.to_dict(), indent=2)
        return
    for hint in picks.hints:
        _say(hint)
    if not picks:
        return
    table = Table(header_style="bold", show_lines=True)
    table.add_column("#", justify="right", no_wrap=True)
    table.add_column("id", style="cyan", no_wrap=True)
    table.add_column("title", ratio=3)
    table.add_column("score", justify="right", no_wrap=True)
    table.add_column("why", ratio=3)
    for rank, pick in enumerate(picks, 1):
        why = Text("\n".join(pick.reasons))  # whole sentences: rich wraps them at word breaks
        table.add_row(str(rank), Text(pick.paper_id), Text(pick.title), f"{pick.score:.3f}", why)
    console.print(table)
    console.print(
        Text(
            f"{len(picks)} picks for '{picks.collection}' from {picks.n_likes} likes"
            f"{f' and {picks.n_dislikes} dislikes' if picks.n_dislikes else ''} "
            f"({picks.method}{f', vectors: {picks.model}' if picks.model else ''})"
        ),
        style="dim",
    )


@app.command()
def digest(
    fmt: Annotated[str, typer.Option("--format", "-f", help="md | html")] = "md",
    list_name: Annotated[str | None, typer.Option("--list", "-l", help="Papers of this list.")] = None,
    collection: Annotated[
        str | None, typer.Option("--collection", "-c", help="Liked papers of this collection.")
    ] = None,
    area: AreaOption = None,
    kind: KindOption = None,
    decision: DecisionOption = None,
    has_code: CodeOption = None,
    tag: TagOption = None,
    state: StateOption = None,
    topic: TopicOption = None,
    new: NewOption = False,
    section: Annotated[
        str | None,
        typer.Option(
            "--section",
            "-s",
            help="Only papers the list put under a section heading holding this (case ignored).",
        ),
    ] = None,
    lang: Annotated[
        str,
        typer.Option(
            "--lang",
            help="en | zh: Chinese headings, and every paper line, area and topic as Chinese terms (a machine gloss).",
        ),
    ] = "en",
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="File to write (default: stdout).")
    ] = None,
    db: DbOption = None,
) -> None:
    """A shareable report grouped by topic: map, overview, one line per paper (Markdown or HTML);
    the filters of `ls` narrow its papers (`--section`: one section of a list, as its own
    headings name it), and a line at its top names them."""
    from paperatlas.results import DIGEST_FORMATS, DIGEST_LANGUAGES

    if fmt not in DIGEST_FORMATS:
        raise UserError(f"unknown digest format '{fmt}' (md or html)")
    if lang not in DIGEST_LANGUAGES:
        raise UserError(f"unknown language '{lang}' (en or zh)")
    check_output(output, "--output")
    if new and list_name is None:
        raise UserError("--new needs --list: papers are new to a list since you last saw it")
    atlas = open_atlas(db)
    require_list(atlas, list_name)
    text = atlas.digest(
        fmt=fmt,
        lang=lang,
        list_name=list_name,
        collection=collection,
        output=output,
        progress=sys.stderr.isatty(),
        filters=filters_of_options(list_name, area, kind, decision, has_code, tag, state),
        topic=topic,
        new=new,
        section=section,
    )
    if output is None:
        stdout_text().write(text)
    else:
        output.write_text(text, encoding="utf-8")
        _say(f"wrote {output}")


@app.command()
def compare(
    list_a: Annotated[str, typer.Argument(metavar="LIST_A", help="The earlier or reference list.")],
    list_b: Annotated[str, typer.Argument(metavar="LIST_B", help="The list to compare with it.")],
    png: Annotated[Path | None, typer.Option("--png", help="Also draw the chart to this PNG file.")] = None,
    top: Annotated[int, typer.Option("--top", help="Rows per table.")] = 12,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")] = False,
    db: DbOption = None,
) -> None:
    """Compare two lists: share by area and topic, biggest risers and fallers, what is new in B."""
    atlas = open_atlas(db)
    for name in (list_a, list_b):
        require_list(atlas, name)
    result = atlas.compare(list_a, list_b, png=png)
    if as_json:
        write_json(result.to_dict(), indent=2)
        return
    for table in _comparison_tables(result, top=top):
        console.print(table)
    if png is not None:
        _say(f"chart written to {png}")


def _comparison_tables(comparison: Comparison, top: int = 12) -> list[Table]:
    """rich Tables: areas, topics, risers and fallers, new names and terms."""
    a, b = comparison.list_a, comparison.list_b
    tables = []
    for title, rows in (
        (f"share by area: {a} ({comparison.n_a}) vs {b} ({comparison.n_b})", comparison.areas[:top]),
        (f"share by topic ({comparison.topic_source})", comparison.topics[:top]),
    ):
        table = Table(title=Text(title), header_style="bold", title_justify="left")
        table.add_column("label", ratio=3)
        table.add_column(Text(a), justify="right")
        table.add_column(Text(b), justify="right")
        table.add_column("change", justify="right")
        for r in rows:
            table.add_row(
                Text(r.label),
                f"{r.count_a} ({r.share_a:.1f}%)",
                f"{r.count_b} ({r.share_b:.1f}%)",
                _delta(r.delta),
            )
        tables.append(table)
    moves = Table(
        title="biggest risers and fallers (topic share, percentage points)",
        header_style="bold",
        title_justify="left",
    )
    moves.add_column("risers", ratio=1)
    moves.add_column("fallers", ratio=1)
    risers, fallers = comparison.risers(top), comparison.fallers(top)
    for i in range(max(len(risers), len(fallers))):
        cells = []
        for rows in (risers, fallers):
            cell = Text()
            if i < len(rows):
                cell.append(rows[i].label + " ")
                cell.append_text(_delta(rows[i].delta))
            cells.append(cell)
        moves.add_row(*cells)
    tables.append(moves)
    new = Table(title=f"new in {b}", header_style="bold", title_justify="left")
    new.add_column("names (not in A)", ratio=1)
    new.add_column("terms (papers of B)", ratio=1)
    names, terms = comparison.new_names[:top], comparison.new_terms[:top]
    for i in range(max(len(names), len(terms))):
        new.add_row(
            Text(names[i][0]) if i < len(names) else Text(""),
            Text(f"{terms[i][0]} ({terms[i][1]})") if i < len(terms) else Text(""),
        )
    tables.append(new)
    return tables


def _delta(value: float) -> Text:
    style = "green" if value > 0 else ("red" if value < 0 else "dim")
    return Text(f"{value:+.1f}", style=style)
