"""Exports done right: BibTeX entry types and fields, LaTeX accents and specials that read
back as the same Unicode, identifiers / section / title-only in JSONL and CSV, Markdown
that renders as the paper's text (no entities, no live HTML, no javascript: links)."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import bibtexparser
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from paperatlas import sources
from paperatlas.api import Atlas
from paperatlas.ingest import add_files
from paperatlas.report.bibtex import bibtex_escape, bibtex_type
from paperatlas.report.export import export_papers
from paperatlas.sources.bibtex import decode_latex

FIX = Path(__file__).parent / "fixtures" / "ingest"


@pytest.fixture
def atlas(tmp_path):
    a = Atlas(tmp_path / "atlas.db")
    add_files(a.store, [FIX / "export_cases.jsonl"])
    yield a
    a.close()


def _export(atlas, fmt: str) -> str:
    out = io.StringIO()
    assert export_papers(atlas.store, fmt, out) == 6
    return out.getvalue()


def _entries(text: str) -> dict:
    library = bibtexparser.parse_string(text)
    assert library.failed_blocks == []
    return {e.key: e for e in library.entries}


def test_bibtex_entry_types_and_fields(atlas):
    entries = _entries(_export(atlas, "bibtex"))
    arx, jour, conf = entries["arx"], entries["jour"], entries["conf"]
    assert arx.entry_type == "misc"
    assert (arx["eprint"], arx["archivePrefix"], arx["primaryClass"]) == ("2501.01234", "arXiv", "cs.LG")
    assert (arx["year"], arx["month"]) == ("2025", "jan")
    assert "journal" not in arx.fields_dict and "booktitle" not in arx.fields_dict
    assert jour.entry_type == "article"
    assert jour["journal"] == "Transactions on Machine Learning Research"
    assert jour["doi"] == "10.1234/abc.5" and jour["year"] == "2024"
    assert conf.entry_type == "inproceedings"
    assert conf["booktitle"].startswith("Proceedings of the 41st International Conference")
    assert conf["url"] == "https://proceedings.mlr.press/v235/chen24a.html"
    rejected = entries["rejected01"]
    assert rejected.entry_type == "misc" and rejected["note"] == "Reject"
    assert rejected["url"] == "https://openreview.net/forum?id=rejected01"
    tonly = entries["tonly"]
    assert "abstract" not in tonly.fields_dict and "title only" in tonly["note"]
    assert tonly["eprint"] == "2502.00002"


@pytest.mark.parametrize(
    "venue, decision, source_type, want",
    [
        ("IEEE Transactions on Pattern Analysis and Machine Intelligence", None, None, "article"),
        ("Proceedings of the National Academy of Sciences", None, None, "article"),
        ("Advances in Neural Information Processing Systems (NeurIPS)", None, None, "inproceedings"),
        ("ICLR 2026 Poster", "Accept (Poster)", None, "inproceedings"),
        (
            "Findings of the Association for Computational Linguistics: EMNLP 2024",
            None,
            None,
            "inproceedings",
        ),
        ("CoRR", None, None, "misc"),
        (None, "Accept (Oral)", None, "inproceedings"),
        (None, "Withdrawn", None, "misc"),
        ("Nature Communications", None, None, "article"),
        ("Some Lab Report Series", None, "techreport", "techreport"),
        ("Some Venue Nobody Knows", None, None, "misc"),
    ],
)
def test_bibtex_type_from_venue_and_decision(venue, decision, source_type, want):
    paper = {
        "venue": venue,
        "decision": decision,
        "extra": {"entry_type": source_type} if source_type else {},
    }
    assert bibtex_type(paper) == want


def test_bibtex_round_trip_keeps_unicode_and_specials(atlas, tmp_path):
    out = tmp_path / "papers.bib"
    export_papers(atlas.store, "bibtex", out)
    text = out.read_text(encoding="utf-8")
    assert r"R{\"u}gamer" in text and r"{\v{S}}ari{\'c}" in text  # LaTeX accents, not raw bytes
    assert r"\textbackslash" not in text
    back = {p.id: p for p in sources.read(out)}
    stored = {p["id"]: p for p in atlas.store.papers.iter()}
    for pid in ("arx", "jour", "conf", "tonly", "rejected01"):
        assert back[pid].title == stored[pid]["title"], pid
        assert back[pid].authors == stored[pid]["authors"], pid
    assert back["arx"].title == "Šarić & Rügamer: 50% of {x_i} ~ naïve café_2 #1"
    assert back["arx"].authors == ["David Rügamer", "Ivan Šarić", "Zoë O'Brien", "Jean-Éric Pin"]
    assert back["arx"].abstract == stored["arx"]["abstract"]  # math kept as written
    assert back["arx"].identifiers == {"arxiv": "2501.01234"}
    assert back["jour"].identifiers == {"doi": "10.1234/abc.5"}
    assert "url = {javascript:" not in text  # a link that is no http(s) URL is left out


@pytest.mark.parametrize(
    "text",
    [
        "Rügamer & Šarić",
        "50% of x_i",
        "{balanced} braces",
        "a } lone brace",
        "a { lone brace",
        r"\textbf{bold}",
        r"\textbf{never closed",
        "$\\frac{a}{b$ broken math",
        "中文 and ✓ and “quotes”",
    ],
)
def test_bibtex_escape_is_balanced_and_ascii_where_latex_can(text):
    escaped = bibtex_escape(text)
    library = bibtexparser.parse_string(f"@misc{{k, title = {{{escaped}}}}}")
    assert library.failed_blocks == [] and len(library.entries) == 1
    assert not re.search(r"[À-ž]", escaped)  # Latin letters with accents are LaTeX commands


def test_jsonl_and_csv_carry_identifiers_section_and_title_only(atlas):
    records = {r["id"]: r for r in map(json.loads, _export(atlas, "jsonl").splitlines())}
    assert records["tonly"]["title_only"] is True and records["arx"]["title_only"] is False
    assert records["arx"]["identifiers"] == {"arxiv": "2501.01234"}
    assert records["arx"]["date"] == "2025-01-03"
    assert "section" in records["arx"] and "code_urls" in records["arx"]
    rows = {r["id"]: r for r in csv.DictReader(io.StringIO(_export(atlas, "csv")))}
    assert rows["tonly"]["title_only"] == "1" and rows["tonly"]["abstract"] == ""
    assert rows["jour"]["identifiers"] == "doi:10.1234/abc.5"
    assert {"section", "code_urls", "date"} <= set(rows["arx"])


def test_markdown_export_is_text_not_html(atlas):
    text = _export(atlas, "markdown")
    assert "&amp;" not in text.replace(r"\&amp;", "")  # the title's own "&amp;" is escaped, not made
    assert "R&D" in text
    html = MarkdownIt("commonmark").render(text)
    assert "<script" not in html and "<img" not in html
    assert "javascript:" not in " ".join(re.findall(r'href="([^"]*)"', html))
    assert "&lt;script&gt;alert('x')&lt;/script&gt; &amp; R&amp;D &amp;amp; more" in html
    assert "<li>" not in html  # an abstract starting with "- " is no list
    assert "(title only" in text
    assert '<a href="https://arxiv.org/abs/2501.01234v2">' in html


_LETTERS = st.text(alphabet="abcXYZ äöüéèçñŠšćžłøßÅ中文 &%_#~-'.,:;!?()[]0123456789", min_size=1, max_size=40)


@settings(max_examples=150, deadline=None)
@given(_LETTERS)
def test_escaped_text_reads_back_as_itself(text):
    escaped = bibtex_escape(text)
    [entry] = bibtexparser.parse_string(f"@misc{{k, title = {{{escaped}}}}}").entries
    assert decode_latex(entry["title"]) == " ".join(text.split())


@pytest.mark.slow  # property test: hundreds of generated inputs
@settings(max_examples=150, deadline=None)
@given(st.text(max_size=60))
def test_any_text_gives_one_parseable_field(text):
    escaped = bibtex_escape(text)
    library = bibtexparser.parse_string(f"@misc{{k, title = {{{escaped}}}}}")
    assert library.failed_blocks == [] and len(library.entries) == 1


def test_csv_cells_a_spreadsheet_would_run_are_quoted(tmp_path):
    from paperatlas.report.export import spreadsheet_safe

    a = Atlas(tmp_path / "f.db")
    src = tmp_path / "f.jsonl"
    src.write_text(
        json.dumps(
            {
                "id": "evil",
                "title": '=HYPERLINK("http://evil.example","click")',
                "rating": -3,
                "abstract": "@SUM(A1) We propose a method for graph pooling that improves accuracy by 3 "
                "points on citation benchmarks over strong baselines.",
            }
        )
        + "\n",
        encoding="utf-8",
    )
    add_files(a.store, [src])
    out = io.StringIO()
    export_papers(a.store, "csv", out)
    a.close()
    row = next(csv.DictReader(io.StringIO(out.getvalue())))
    assert row["title"] == '\'=HYPERLINK("http://evil.example","click")'
    assert row["abstract"].startswith("'@SUM(A1) We propose")
    assert [spreadsheet_safe(v) for v in ("+1 cmd", "-x", "\tx", "\rx", "plain", "a=b")] == [
        "'+1 cmd",
        "'-x",
        "'\tx",
        "'\rx",
        "plain",
        "a=b",
    ]
    assert [spreadsheet_safe(v) for v in (-3, "-3", "-2.5", "+4", 1.5)] == [-3, "-3", "-2.5", "+4", 1.5]


def test_an_accepted_paper_of_a_conference_list_gets_its_booktitle(tmp_path):
    records = [
        {
            "id": "acc",
            "title": "Accepted Paper",
            "abstract": "An accepted paper about graphs.",
            "year": 2026,
            "decision": "Accept (Poster)",
            "authors": ["Ann Lee", "Bo Chen"],
        },
        {
            "id": "rej",
            "title": "Rejected Paper",
            "abstract": "A rejected paper about trees.",
            "year": 2026,
            "decision": "Not accepted",
        },
    ]
    path = tmp_path / "iclr.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in records), encoding="utf-8")
    with Atlas(tmp_path / "atlas.db") as atlas:
        atlas.add([path], list_name="iclr2026", enrich=False)
        atlas.add([path], list_name="reading2026", enrich=False)
        out = io.StringIO()
        atlas.export("bibtex", out)
    entries = _entries(out.getvalue())
    accepted, rejected = entries["acc"], entries["rej"]
    assert accepted.entry_type == "inproceedings"
    assert accepted["booktitle"] == "ICLR 2026"
    assert accepted["author"] == "Ann Lee and Bo Chen"
    assert rejected.entry_type == "misc" and "booktitle" not in rejected.fields_dict


def test_a_list_not_named_for_a_conference_gives_no_booktitle(tmp_path):
    path = tmp_path / "mine.jsonl"
    record = {
        "id": "acc",
        "title": "Accepted",
        "abstract": "About graphs.",
        "year": 2025,
        "decision": "Accept",
    }
    path.write_text(json.dumps(record), encoding="utf-8")
    with Atlas(tmp_path / "atlas.db") as atlas:
        atlas.add([path], list_name="reading2025", enrich=False)
        atlas.add([path], list_name="iclr2026", enrich=False)  # another year than the paper's
        out = io.StringIO()
        atlas.export("bibtex", out)
    assert "booktitle" not in _entries(out.getvalue())["acc"].fields_dict
