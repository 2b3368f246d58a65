"""Reference-manager and site-generator exports: each record's link is a web address the
record gives, never a file name."""

from __future__ import annotations

from pathlib import Path

from paperatlas import sources

FIX = Path(__file__).parent / "fixtures" / "exports"


def test_alfolio_file_names_are_no_links_and_a_doi_field_address_is_one():
    papers = list(sources.read(FIX / "alfolio_site.bib"))
    assert [p.title for p in papers] == [
        "A Taxonomy of Rollup Security Assumptions",
        "The Shortcomings of Zero-Knowledge Rollups in Privacy",
        "An Engagement Model for a Recommender Challenge",
    ]
    assert papers[0].urls == ["https://doi.org/10.1016/j.example.2025.100388"]
    assert papers[1].urls == ["https://dialnet.example.es/servlet/articulo?codigo=10094389"]
    assert papers[2].urls[0] == "http://hdl.handle.net/2445/185952"
    assert "https://diposit.example.edu/bitstream/2445/185952/tfm.pdf" in papers[2].urls
    assert papers[2].code_urls == ["https://github.com/example/recsys2021"]


def test_a_programs_tutorials_and_workshops_are_no_papers():
    report = sources.ReadReport()
    papers = list(
        sources.read(Path(__file__).parent / "fixtures" / "programs" / "accepted_with_events.html", report)
    )
    assert [p.title for p in papers] == [
        "A Study of Collaborative Search with Language Models",
        "Goal Setting and Learning while Searching",
        "Epistemic Limits of Search Agents",
        "Query Reformulation by Children",
        "Reading Lists as Search Traces",
    ]
    assert report.skipped == {
        "not a paper (under the heading 'Tutorials')": 2,
        "not a paper (under the heading 'Workshops')": 1,
    }


def test_a_heading_naming_papers_of_an_event_is_no_event():
    from paperatlas.sources.kinds import not_paper_section

    assert not_paper_section("Workshop Papers") is None
    assert not_paper_section("Posters") is None
    assert not_paper_section("Program > Keynotes") == "not a paper (under the heading 'Keynotes')"


def test_latex_escapes_in_a_link_field_are_undone():
    (paper,) = sources.read(FIX / "mendeley_escapes.bib")
    assert paper.urls == [
        "http://www.scopus.example/inward/record.url?eid=2-s2.0-84881573395&partnerID=40",
        "http://link.example.com/10.1007/3-540-45355-5_27",
    ]
    assert paper.identifiers.get("doi") == "10.1007/3-540-45355-5_27"
