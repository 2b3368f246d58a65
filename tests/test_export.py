"""Exports: JSONL carries every stored field (id first), BibTeX parses back, CSV and
Markdown hold each paper."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import bibtexparser
import pytest

from paperatlas.api import Atlas
from paperatlas.filters import Filters
from paperatlas.ingest import add_files
from paperatlas.report.bibtex import bibtex_escape
from paperatlas.report.export import FORMATS, export_papers

FIX = Path(__file__).parent / "fixtures" / "sources"
NASTY = [
    "An abstract with 50% gains & a #hashtag, snake_case, a ~tilde and x^2.",
    r"Math stays: $\mathcal{O}(n^2)$ and $x_i$; \textbf{bold} stays too.",
    "Unbalanced { brace and a stray } brace } here.",
    r"A lone backslash \ and an escaped \% percent and a $ dollar sign.",
    "Unicode: naïve café — 中文 and “quotes”.",
]


@pytest.fixture
def atlas(tmp_path):
    a = Atlas(tmp_path / "atlas.db")
    add_files(a.store, [FIX / "iclr_mini.jsonl", FIX / "copied_list.txt"])
    rows = [
        {
            "id": f"nasty{i}",
            "title": f"Title {{{i}}} with % and _",
            "abstract": text,
            "authors": ["Zoë Ünicode", "O'Brien, Pat"],
        }
        for i, text in enumerate(NASTY)
    ]
    path = tmp_path / "nasty.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    add_files(a.store, [path])
    a.store.facts.set(
        "GmX7qQ1abc",
        {
            "name": "GraphMixer",
            "kind": "method",
            "has_code": True,
            "links": [{"url": "https://github.com/x/y", "type": "code"}],
        },
        "h",
        "v1",
    )
    yield a
    a.close()


def _export(atlas, fmt, **selection) -> str:
    out = io.StringIO()
    count = export_papers(atlas.store, fmt, out, **selection)
    assert count > 0
    return out.getvalue()


def test_jsonl_has_every_field_id_first_with_facts_and_lists(atlas):
    lines = _export(atlas, "jsonl").splitlines()
    records = [json.loads(line) for line in lines]
    assert len(records) == atlas.store.papers.count()
    assert all(next(iter(r)) == "id" for r in records)
    by_id = {r["id"]: r for r in records}
    graph = by_id["GmX7qQ1abc"]
    stored = atlas.store.papers.get("GmX7qQ1abc")
    for key, value in stored.items():
        assert graph[key] == value
    assert graph["lists"] == ["copied_list", "iclr_mini"]
    assert graph["facts"]["name"] == "GraphMixer"
    assert graph["extra"]["tldr"] == "MLPs suffice for temporal graphs."


def test_jsonl_of_one_list_in_list_order(atlas):
    records = [
        json.loads(line)
        for line in _export(atlas, "jsonl", filters=Filters(list_name="copied_list")).splitlines()
    ]
    assert [r["id"] for r in records] == atlas.store.papers.ids("copied_list")


def test_selection_by_ids_keeps_their_order(atlas):
    records = [
        json.loads(line)
        for line in _export(atlas, "jsonl", ids=["MemInf0001", "GmX7qQ1abc", "nope"]).splitlines()
    ]
    assert [r["id"] for r in records] == ["MemInf0001", "GmX7qQ1abc"]


def test_bibtex_parses_back_with_zero_errors(atlas):
    text = _export(atlas, "bibtex")
    library = bibtexparser.parse_string(text)
    assert library.failed_blocks == []
    entries = {e.key: e for e in library.entries}
    assert len(entries) == atlas.store.papers.count()
    graph = entries["GmX7qQ1abc"]
    assert graph["url"] == "https://openreview.net/forum?id=GmX7qQ1abc"
    assert graph.entry_type == "inproceedings"
    assert "GraphMixer" in graph["title"]
    for i in range(len(NASTY)):
        assert f"nasty{i}" in entries
    assert r"50\% gains \& a \#hashtag, snake\_case" in entries["nasty0"]["abstract"]
    assert r"$\mathcal{O}(n^2)$ and $x_i$" in entries["nasty1"]["abstract"]
    assert r"\textbf{bold}" in entries["nasty1"]["abstract"]
    assert "url" not in entries[next(k for k in entries if k.startswith("h"))].fields_dict


@pytest.mark.parametrize("text", [*NASTY, "}{", "{{{", "$", r"\\", "a\\"])
def test_bibtex_escape_gives_balanced_fields(text):
    escaped = bibtex_escape(text)
    library = bibtexparser.parse_string(f"@misc{{k, abstract = {{{escaped}}}}}")
    assert library.failed_blocks == [] and len(library.entries) == 1


def test_csv_round_trip(atlas, tmp_path):
    out = tmp_path / "papers.csv"
    count = export_papers(atlas.store, "csv", out)
    with open(out, newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == count == atlas.store.papers.count()
    graph = next(r for r in rows if r["id"] == "GmX7qQ1abc")
    assert graph["keywords"] == "temporal graphs; MLP"
    assert graph["kind"] == "method" and graph["has_code"] == "1"
    assert graph["lists"] == "copied_list; iclr_mini"
    nasty = next(r for r in rows if r["id"] == "nasty2")
    assert nasty["abstract"] == NASTY[2]


def test_markdown_lists_each_paper(atlas):
    text = _export(atlas, "markdown", filters=Filters(list_name="iclr_mini"))
    assert text.count("\n## ") + text.startswith("## ") == 4
    assert "## GraphMixer: Simple Temporal Graph Learning" in text
    assert "<https://openreview.net/forum?id=GmX7qQ1abc>" in text


def test_unknown_format_is_a_clear_error(atlas):
    from paperatlas.errors import PaperatlasError

    with pytest.raises(PaperatlasError, match="unknown export format"):
        export_papers(atlas.store, "docx", io.StringIO())
    assert FORMATS == ("jsonl", "csv", "bibtex", "ris", "csl-json", "markdown", "markdown-folder")
