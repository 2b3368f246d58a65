"""How the record finder chooses among the sibling runs of a list written by people: one run
of records under topic headings of different levels, no table of contents, no label line or
topic heading pooling the records under it, links kept under badge images; and when its
reading is kept over the line reader's."""

from __future__ import annotations

from pathlib import Path

from paperatlas import sources
from paperatlas.sources import doctree
from paperatlas.sources.finder import find

FIX = Path(__file__).parent / "fixtures" / "record_runs"


def _finder_titles(name: str) -> list[str | None]:
    return [e.title for e in find(doctree.from_markdown((FIX / name).read_text(encoding="utf-8"))).entries]


def test_records_under_headings_of_two_levels_are_one_run():
    # two papers right under a `#` topic, eight under `##` subtopics: all ten, in order
    titles = _finder_titles("topic_heading_levels.md")
    assert titles[:3] == [
        "Guided Sampling for Faster Image Diffusion",
        "Noise Schedules That Adapt to the Data",
        "Token Merging Revisited for Dense Prediction",
    ]
    assert len(titles) == 10
    assert titles[-1] == "Prompted Segmentation Across Domains"


def _finder_entries(name: str) -> list:
    return find(doctree.from_markdown((FIX / name).read_text(encoding="utf-8"))).entries


def test_table_of_contents_is_no_record():
    # the contents' links point into the page (`#image-generation-methods`): they name its
    # topics, beside the papers in the same shape, and are no papers
    titles = _finder_titles("contents_anchors.md")
    assert len(titles) == 7
    assert "Image Generation Methods" not in titles
    assert titles[0] == "Guided Sampling for Faster Image Diffusion"


def test_a_table_of_contents_with_descriptions_is_no_record():
    # a contents table whose rows describe each part: its links name the page's headings
    titles = _finder_titles("contents_table.md")
    assert titles == [
        "Patch Memory for Unsupervised Defect Maps",
        "Student Teacher Features for Texture Anomalies",
        "Reverse Distillation of Normal Appearance",
        "Prompted Anomaly Scoring From Two Shots",
        "Registration-Based Few-Shot Anomaly Detection",
    ]


def test_a_badge_image_inside_a_link_keeps_the_link():
    # `<a href="https://arxiv.org/abs/..."><img src="badge.svg"></a>` under each paper
    entries = _finder_entries("badge_links.md")
    assert len(entries) == 3
    assert [e.urls[0] for e in entries] == [
        "https://arxiv.org/abs/2405.00021",
        "https://arxiv.org/abs/2405.00022",
        "https://arxiv.org/abs/2405.00023",
    ]


def test_a_bold_year_line_over_a_list_of_papers_pools_none_of_them():
    # `**2021**` and the numbered papers under it: each paper is a record, not one pair
    titles = _finder_titles("year_label_lists.md")
    assert titles == [
        "Robust Features From Adversarial Pre-training",
        "Style Normalisation for Domain Shift",
        "A Theory of Out-of-Distribution Transfer",
        "Invariant Risk Minimisation Revisited",
        "Learning Domain-Free Representations",
    ]


def test_a_topic_heading_over_title_and_link_pairs_is_no_paper():
    # `<b>Title</b>` and its list of names, link and comment, twice under each topic: four
    # papers, and the topics (which hold them) none
    entries = _finder_entries("topic_title_pairs.md")
    assert [e.title for e in entries] == [
        "Exploring Game Spaces With Survival Curves",
        "Bandit Search for Game Improvement",
        "An Experiment in Automatic Rule Design",
        "Playtesting Board Games by Search",
    ]
    assert entries[0].urls == ["https://games.example.org/survival.pdf"]


def test_lines_beyond_the_run_that_link_no_paper_leave_the_run_its_list():
    # ten papers in a table, and above it three code libraries in a list: read line by line
    # the libraries were papers too; the table's rows are the list
    papers = list(sources.read(FIX / "table_and_tools.md"))
    assert len(papers) == 10
    assert papers[0].title == "Scaling Graph Training Across Many Machines"
    assert not any("github.com" in url for paper in papers for url in paper.urls)


def test_a_badge_image_inside_a_link_keeps_the_link_in_an_html_page():
    text = (FIX / "badge_links.html").read_text(encoding="utf-8")
    entries = find(doctree.from_html(text)).entries
    assert [e.urls for e in entries] == [
        ["https://arxiv.org/abs/2404.00061"],
        ["https://arxiv.org/abs/2404.00062"],
        ["https://arxiv.org/abs/2404.00063"],
    ]
