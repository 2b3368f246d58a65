"""A digest of a list or a collection: overview, map, and one line per paper by topic.

`digest(store, fmt, lang, list_name=None, collection=None)` gathers what the report
shows into a `DigestData` (no formatting here) and hands it to the Markdown or HTML
writer. Topics come from the stored map of the list (built with `Atlas.build_map` when
missing); when no map can be made (no vectors), papers are grouped by research area and
the report says so.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from paperatlas.errors import PaperatlasError
from paperatlas.filters import ALL_PAPERS, Filters
from paperatlas.report.digest_data import collect
from paperatlas.report.html import render_html
from paperatlas.report.markdown import render_markdown
from paperatlas.report.strings import strings

FORMATS = ("md", "html")


def digest(
    store,
    fmt: str = "md",
    lang: str = "en",
    list_name: str | None = None,
    collection: str | None = None,
    output: str | Path | None = None,
    progress: bool = False,
    filters: Filters = ALL_PAPERS,
    query: str | None = None,
    query_k: int = 100,
    topic: str | None = None,
    new: bool = False,
    section: str | None = None,
    ids: Iterable[str] | None = None,
    exact: bool = False,
) -> str:
    """The digest as text. `output` (Markdown only) is where the caller will write it: the
    map is then written beside it as a PNG and linked; without it the map is inlined.
    `progress` shows a bar while a missing map is built (minutes for a whole conference).
    `filters` narrow the papers (their list stands for `list_name`), or `query` keeps a
    search's `query_k` best hits among them (`exact`: its words as typed); `topic` keeps the
    papers of the map topics it names (`mine`, or a label: report/my_topics.py), `new` those
    of the list added since it was last seen, `section` those the list put under a heading
    holding it; `ids` keeps only these papers (a topic as the web's map holds it: `topic`
    then only names it)."""
    words = strings(lang)
    if fmt not in FORMATS:
        raise PaperatlasError(f"unknown digest format {fmt!r} (md or html)")
    data = collect(
        store,
        list_name=list_name,
        collection=collection,
        progress=progress,
        filters=filters,
        query=query,
        query_k=query_k,
        topic=topic,
        new=new,
        section=section,
        only=ids,
        exact=exact,
    )
    if lang == "zh":
        from paperatlas.report.zh_card import localise_digest

        answers = store.llm.accepted([p.id for p in data.papers], "title")
        data = localise_digest(data, {pid: a["output"] for pid, a in answers.items()})
    if fmt == "html":
        return render_html(data, words, lang)
    return render_markdown(data, words, output=Path(output) if output else None)
