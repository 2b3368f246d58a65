"""`paperatlas search` and `paperatlas similar`: thin wrappers over Atlas.search / Atlas.similar."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

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
    StateOption,
    TagOption,
    UserError,
    app,
    console,
    err_console,
    filters_of_options,
    open_atlas,
    write_json,
)
from paperatlas.errors import InputError

if TYPE_CHECKING:
    from paperatlas.results import SearchResult

KOption = Annotated[int, typer.Option("--k", "-k", help="How many results.", min=1, max=1000)]
OffsetOption = Annotated[int, typer.Option("--offset", help="Skip this many results (paging).", min=0)]
JsonOption = Annotated[bool, typer.Option("--json", help="Machine-readable JSON on stdout.")]


@app.command("search")
def search_command(
    query: Annotated[str, typer.Argument(help="Words, a phrase, or a question (any language).")],
    k: KOption = 20,
    offset: OffsetOption = 0,
    list_name: ListOption = None,
    area: AreaOption = None,
    kind: KindOption = None,
    decision: DecisionOption = None,
    has_code: CodeOption = None,
    tag: TagOption = None,
    state: StateOption = None,
    mode: Annotated[
        str, typer.Option("--mode", help="auto (keywords + meaning), keyword, or semantic.")
    ] = "auto",
    exact: Annotated[
        bool, typer.Option("--exact", help="Search the words as typed: no spelling correction.")
    ] = False,
    as_json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """Search by keywords and meaning together; Chinese and other languages work too.
    Misspelt words are searched as the atlas's nearest words (the output says so; --exact
    turns that off); an arXiv id, DOI, OpenReview id or a paper's exact title shows that
    paper first."""
    filters = filters_of_options(list_name, area, kind, decision, has_code, tag, state)
    atlas = open_atlas(db)
    result = atlas.search(query, k=k, offset=offset, filters=filters, method=mode, exact=exact)
    _show(result, as_json)


@app.command("similar")
def similar_command(
    paper_id: Annotated[
        str | None,
        typer.Argument(help="A paper id (or unique prefix) to find papers like.", show_default=False),
    ] = None,
    text: Annotated[
        str | None,
        typer.Option("--text", help="Find papers like this text (e.g. the abstract you are writing)."),
    ] = None,
    file: Annotated[
        Path | None, typer.Option("--file", help="Find papers like the text in this file.")
    ] = None,
    k: KOption = 10,
    offset: OffsetOption = 0,
    list_name: ListOption = None,
    area: AreaOption = None,
    kind: KindOption = None,
    decision: DecisionOption = None,
    has_code: CodeOption = None,
    tag: TagOption = None,
    state: StateOption = None,
    as_json: JsonOption = False,
    db: DbOption = None,
) -> None:
    """More like this: the papers most like a paper or a text, read from every signal the
    atlas holds (the text's key terms, each model's vectors), fused with learned weights."""
    given = [x is not None for x in (paper_id, text, file)]
    if sum(given) != 1:
        raise UserError('give exactly one of: a paper ID, --text "...", or --file PATH')
    if file is not None:
        text = _read_text(file)
    filters = filters_of_options(list_name, area, kind, decision, has_code, tag, state)
    atlas = open_atlas(db)
    result = atlas.similar(paper_id=paper_id, text=text, k=k, offset=offset, filters=filters)
    _show(result, as_json)


def _read_text(path: Path) -> str:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(path, f"cannot read ({exc.strerror or exc})") from None
    if b"\x00" in data[:4096]:
        raise InputError(path, "looks binary; give a plain-text file")
    return data.decode("utf-8", errors="replace")


def _show(result: SearchResult, as_json: bool) -> None:
    if as_json:
        write_json(result.to_dict(), indent=1)
        return
    for note in result.notes:
        err_console.print(Text(f"note: {note}", style="yellow"))
    if result.corrected:
        console.print(Text(f"showing results for “{_shorten(result.corrected)}” (as typed: --exact)"))
    if result.identified_by and result.offset == 0:
        how = result.identified_by
        console.print(Text(f"the query is the {how} of {', '.join(result.identified)}: shown first"))
    if not result.hits:
        console.print(
            Text("No results." if result.total == 0 else f"No results on this page ({result.total} in all).")
        )
        return
    table = Table(show_lines=True, expand=True)
    table.add_column("#", justify="right", no_wrap=True)
    table.add_column("paper", ratio=2)
    table.add_column("why", ratio=1)
    table.add_column("snippet", ratio=4)
    for hit in result.hits:
        paper = Text(hit.label, style="bold")
        paper.append(f"\n{hit.id}", style="dim")
        meta = " · ".join(x for x in (hit.kind, hit.decision) if x)
        if meta:
            paper.append(f"\n{meta}", style="dim")
        table.add_row(str(hit.rank), paper, Text(hit.why()), _snippet_text(hit.snippet))
    console.print(table)
    shown_to = result.offset + len(result.hits)
    more = f"; next page: --offset {shown_to}" if shown_to < result.total else ""
    model = f", model {result.model}" if result.model else ""
    read_as = f" · read as “{_shorten(result.read_as)}”" if result.read_as else ""
    console.print(
        Text(
            f"{result.offset + 1}-{shown_to} of {result.total} · {result.mode} · "
            f"language {result.language}{model}{read_as}{more}",
            style="dim",
        )
    )


def _shorten(text: str, limit: int = 100) -> str:
    return text if len(text) <= limit else text[: limit - 1].rsplit(" ", 1)[0] + " …"


def _snippet_text(segments: list[dict[str, Any]]) -> Text:
    # Text.append takes the abstract as plain text: no rich markup is interpreted.
    text = Text()
    for seg in segments:
        text.append(seg["text"], style="bold yellow" if seg["match"] else None)
    return text
