"""Big text files: a long list of wrapped abstracts, a paragraph of many links, a run of
label lines, a dictionary. What they read as (reading them is linear in their size; the
times are benchmarks/big_text.py's, not a test's)."""

from __future__ import annotations

import random
import textwrap
from pathlib import Path

import pytest

from paperatlas import sources
from paperatlas.errors import InputError
from paperatlas.sources import ReadReport
from paperatlas.sources.entries import read_entries
from paperatlas.sources.limits import ABSTRACT_MAX_CHARS
from paperatlas.sources.text import TITLE_MAX_CHARS

_WORDS = (
    "we propose a method for sparse graph learning that improves node classification on six "
    "benchmarks while reducing memory and training time by a wide margin over strong baselines"
).split()


def _abstract(rng: random.Random) -> str:
    return " ".join(rng.choices(_WORDS, k=rng.randint(40, 90))) + "."


@pytest.mark.slow  # reads or writes thousands of records
def test_a_long_list_of_wrapped_abstracts_reads_every_paragraph_whole(tmp_path):
    rng = random.Random(7)
    papers = [(f"Paper number {i} on sparse graph learning", _abstract(rng)) for i in range(600)]
    text = "# Reading list\n\n" + "".join(
        f"## {title}\n\n{textwrap.fill(abstract, 60)}\n\n" for title, abstract in papers
    )
    path = tmp_path / "list.md"
    path.write_text(text)
    read = list(sources.read(path))
    assert [(p.title, p.abstract) for p in read] == papers


def test_a_paragraph_of_many_links_keeps_each_once_in_order(tmp_path):
    urls = [f"https://example.org/p/{i % 200}" for i in range(400)]  # each one twice
    lines = [f"See [Paper]({u})." for u in urls]
    path = tmp_path / "links.md"
    path.write_text(_abstract(random.Random(1)) + "\n" + "\n".join(lines) + "\n")  # one paragraph
    [paper] = read_entries(path)
    assert paper.urls == list(dict.fromkeys(urls))
    assert paper.abstract.count("See Paper.") == 400


def test_a_title_that_runs_on_for_pages_ends_where_no_title_would(tmp_path):
    path = tmp_path / "title.md"
    path.write_text(
        "Title: A study of sparse graphs\n" + "\n".join(f"and words {i} more" for i in range(3000))
    )
    [paper] = read_entries(path)
    assert paper.title.startswith("A study of sparse graphs and words 0 more")
    assert TITLE_MAX_CHARS < len(paper.title) < TITLE_MAX_CHARS + 30


def _dictionary(path: Path, header: str) -> None:
    rng = random.Random(3)
    lines = [
        f"{w} {w.upper()} [{w}{rng.randint(1, 4)}] /{' '.join(rng.choices(_WORDS, k=4))}/"
        for w in ("".join(rng.choices("abcdefgh", k=rng.randint(2, 6))) for _ in range(3000))
    ]
    path.write_text(header + "\n".join(lines) + "\n")


@pytest.mark.parametrize(
    ("header", "fmt"),
    [("# A glossary\n#\n# License: none\n#\n# Made by hand\n#! version=1\n", "markdown"), ("", "text")],
)
def test_a_dictionary_is_not_stored_as_a_paper(tmp_path, header, fmt):
    """One entry a line, no blank line: one paragraph of 100,000+ characters, longer than
    any abstract. The file is refused as holding no paper rather than read as one."""
    path = tmp_path / "glossary.txt"
    _dictionary(path, header)
    report = ReadReport()
    with pytest.raises(InputError, match="no paper in it: text longer than any abstract"):
        list(sources.read(path, report))
    assert report.format == fmt and sum(report.skipped.values()) == 1
    assert path.stat().st_size > 4 * ABSTRACT_MAX_CHARS
