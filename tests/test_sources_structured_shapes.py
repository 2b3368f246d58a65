"""Structured lists in shapes the readers were not shown: a conference programme in YAML
(papers three levels down, among breaks and keynotes, a tab after a key), a mapping of
reference entries (Hayagriva: typed entries, a `parent` venue, links one level down), web
pages saved to a reference manager, blog posts in a reading list, YAML nested past the limits."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperatlas import sources
from paperatlas.errors import InputError
from paperatlas.paper import Paper
from paperatlas.sources import ReadReport

FIX = Path(__file__).parent / "fixtures" / "shapes33"


def _read(name: str, report: ReadReport | None = None) -> list[Paper]:
    return list(sources.read(FIX / name, report))


def test_yaml_programme_papers_are_the_talks_with_authors_at_any_depth():
    report = ReadReport()
    papers = _read("programme.yml", report)
    assert report.format == "yaml"
    # breaks, the keynote and the sessions (which hold talks) are not papers
    assert [p.title for p in papers] == [
        "Bounded Games on Weighted Graphs",
        "Succinct Automata: a Lower Bound",
        "Typed Channels for Asynchronous Processes",  # `name:<TAB>Typed ...`
        "Weighted Barbed Congruence Revisited",
    ]
    assert papers[0].authors == ["Dana Park", "Eli Novak", "Femi Ade"]
    assert papers[2].source.endswith("programme.yml:26")


def test_yaml_mapping_of_typed_entries():
    report = ReadReport()
    papers = _read("entries.yaml", report)
    assert report.format == "yaml"  # entries keyed by name, no `- title:` items
    assert [p.title for p in papers] == [
        "Sparse Graph Transformers at Scale",
        "Causal Priors for Robot Control",
        "Robust Planning on Edge Devices",
    ]  # the venue (`parent`) is no paper; the book and the code repository are left out
    assert report.skipped == {"not a paper (type book)": 1, "not a paper (type repository)": 1}
    first, second, third = papers
    assert first.authors == ["Lee, Ann", "Chen, Bo"] and first.year == 2024
    assert first.urls == ["https://doi.org/10.1109/LRA.2024.1234567"]  # `serial-number: {doi: ...}`
    assert second.authors == ["Park, D. K.", "Novak, E.", "Ade, F."]  # one text, surname first
    assert second.urls == ["https://ieeexplore.ieee.org/document/1234567"]  # `url: {value: ...}`
    assert third.authors == ["Sato, J."]  # `et al.` left out


def test_yaml_authors_written_as_mappings_are_persons_not_papers(tmp_path):
    yml = tmp_path / "pubs.yml"
    yml.write_text(
        "".join(
            f"- key: p{i}\n  title: Robust Planning Method Number {i}\n  authors:\n"
            "    - name: Ann Lee\n      link: https://annlee.example.org/\n"
            "    - name: Bo Chen\n      link: https://bochen.example.org/\n"
            f"  venue: CVPR 2026\n  arXiv: https://arxiv.org/abs/2604.0{i}870\n\n"
            for i in range(1, 4)
        )
    )
    papers = list(sources.read(yml))
    assert [p.title for p in papers] == [f"Robust Planning Method Number {i}" for i in range(1, 4)]
    assert papers[0].authors == ["Ann Lee", "Bo Chen"]


def test_a_saved_web_page_is_a_paper_only_with_a_papers_identifier():
    report = ReadReport()
    papers = _read("saved_pages.json", report)
    assert report.format == "csl"
    # a news story's article link and journal-like site name, an institute's report as a
    # PDF: no paper; the page of a paper with its DOI is one
    assert [p.title for p in papers] == [
        "Sparse Graph Transformers at Scale",
        "Human Wagering Depends on Opponents' Faces",
        "Causal Priors for Robot Control",
    ]
    assert report.skipped == {
        "not a paper (type webpage without a DOI, arXiv or OpenReview id or publications page)": 2
    }


def test_a_reading_list_entry_whose_only_link_is_a_blog_post_is_no_paper():
    report = ReadReport()
    papers = _read("reading_with_posts.org", report)
    assert report.format == "org"
    assert [p.title for p in papers] == [
        "Paxos Made Simple",
        "Raft: In Search of an Understandable Consensus Algorithm",
        "Ivy: Safety Verification by Interactive Generalization",
        "Verifying Fault-Tolerant Erlang Programs",
    ]
    assert report.skipped == {"not a paper (its only links are blog posts or news pages)": 2}


def test_yaml_nested_past_the_limits_is_one_line_not_a_traceback(tmp_path):
    head = "- title: A Paper on Things\n  authors: Ann Lee\n- title: Another Paper Here\n  authors: Bo Chen\n"
    bomb = tmp_path / "bomb.yml"
    bomb.write_text(head + "- x: " + "[" * 3000 + "]" * 3000 + "\n")
    with pytest.raises(InputError, match="YAML nested too deeply to read"):
        list(sources.read(bomb))
    deep = tmp_path / "deep.yml"
    deep.write_text(head + "  extra: " + "[" * 100 + "]" * 100 + "\n")
    report = ReadReport()
    assert [p.title for p in sources.read(deep, report)] == ["A Paper on Things"]
    assert report.skipped == {"YAML nested deeper than 32 levels (not a paper)": 1}
