"""How the record finder chooses among the sibling runs of a list written by people: one run
of records under topic headings of different levels."""

from __future__ import annotations

from pathlib import Path

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
