"""The plain-text list reader on the bundled sample and on messy copies."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paperatlas import sources
from paperatlas.errors import InputError
from paperatlas.sources.text import TITLE_MAX_WORDS, read_text, repair_hyphenation

ROOT = Path(__file__).resolve().parent.parent
FIX = Path(__file__).parent / "fixtures" / "sources"
SAMPLE = ROOT / "examples" / "iclr2026_sample_list.txt"
TITLES = [
    "Learning Sparse Graph Structure",
    "CodeAgentBench: Agents on Real Repositories",
    "Sample Complexity of Learning Parities",
]


def test_sample_list_gives_19_papers_and_not_the_header():
    papers = list(sources.read(SAMPLE))
    paragraphs = [p for p in SAMPLE.read_text(encoding="utf-8").split("\n\n") if p.strip()]
    assert sources.detect(SAMPLE) == "text"
    assert len(papers) == 19
    assert [p.abstract for p in papers] == [p.strip() for p in paragraphs[1:]]
    assert all("论文列表" not in p.abstract and p.title is None for p in papers)
    assert papers[0].source.endswith(":3")


@pytest.mark.parametrize(
    "name", ["titled_blocks.txt", "numbered.txt", "markdown.md", "labels.txt", "alternating.txt"]
)
def test_titled_list_styles(name):
    papers = list(sources.read(FIX / name))
    assert [p.title for p in papers] == TITLES
    assert papers[0].abstract.startswith("We propose a method for learning sparse graph")
    assert papers[1].abstract.endswith("rather than code.")
    assert all(p.abstract and "ICLR" not in p.abstract for p in papers)


def test_numbers_and_labels_are_kept_as_fields():
    numbered = list(sources.read(FIX / "numbered.txt"))
    assert [p.extra["number"] for p in numbered] == [1, 12, 13]
    labelled = list(sources.read(FIX / "labels.txt"))
    assert labelled[0].authors == ["Ann Lee", "Bo Chen"]
    assert labelled[2].keywords == ["theory", "parities"]
    # an abstract label split over two lines is joined into one abstract
    assert "one hundred real repositories" in labelled[1].abstract


def test_title_authors_abstract_blocks():
    papers = list(sources.read(FIX / "title_authors_abstract.txt"))
    assert [p.title for p in papers] == TITLES
    assert papers[0].authors == ["Ann Lee", "Bo Chen", "Jean-Luc de la Fontaine"]
    assert papers[1].authors == ["Maria Garcia"]
    assert papers[2].authors == [] and papers[2].abstract.startswith("We prove")
    assert all(p.abstract.startswith(("We ", "Our ")) for p in papers)


def test_crlf_and_bom():
    papers = list(sources.read(FIX / "crlf_bom.txt"))
    assert len(papers) == 3
    assert not any("\r" in p.abstract or "\ufeff" in p.abstract for p in papers)
    assert papers[0].abstract.startswith("We propose")


def test_wrapped_abstract_under_a_title():
    [paper] = sources.read(FIX / "wrapped_titled.txt")
    assert paper.title == "Learning Sparse Graph Structure from Node Features"
    assert "node features, which recovers" in paper.abstract
    assert "\n" not in paper.abstract


def test_soft_hyphenation_repaired_latex_left_intact():
    first, second = sources.read(FIX / "hyphenation.txt")
    assert "new materials for batteries" in first.abstract
    assert "self-supervised" in first.abstract
    assert "pre- and post-training" in first.abstract
    assert "state-of-the-art" in first.abstract
    assert r"$\mathcal{L}(x- y)$" in first.abstract
    assert "is broken across lines" in second.abstract


@pytest.mark.parametrize(
    "text, expected",
    [
        ("materi- als", "materials"),
        ("materi-\nals", "materials"),
        ("soft\u00adhyphen", "softhyphen"),
        ("zero- to few-shot", "zero- to few-shot"),
        ("cross- lingual", "cross-lingual"),
        ("$a- b$ and $x^{n- 1}$", "$a- b$ and $x^{n- 1}$"),
        (r"\foo- bar", r"\foo- bar"),
        ("GPT- 4 and Transformer- Based", "GPT- 4 and Transformer- Based"),
    ],
)
def test_repair_hyphenation(text, expected):
    assert repair_hyphenation(text) == expected


def test_bracketed_numbers_are_text_not_json(tmp_path):
    path = tmp_path / "refs.txt"
    path.write_text(
        "[1] Learning Sparse Graph Structure\nWe propose a method for learning graphs "
        "from node features and test it on six benchmarks.\n",
        encoding="utf-8",
    )
    assert sources.detect(path) == "text"
    [paper] = sources.read(path)
    assert paper.abstract.startswith("We propose")
    assert paper.title == "Learning Sparse Graph Structure" and paper.extra["number"] == 1


def test_short_line_between_untitled_abstracts_is_a_heading(tmp_path):
    long_a = "We study " + "very " * 30 + "long abstracts."
    long_b = "We also study " + "other " * 30 + "abstracts."
    path = tmp_path / "list.txt"
    path.write_text(
        f"Oral papers\n\n{long_a}\n\n{long_b}\n\nPoster papers\n\n{long_a} Again.\n", encoding="utf-8"
    )
    papers = list(sources.read(path))
    assert [p.title for p in papers] == [None, None, None]
    assert len(papers) == 3


def test_titled_entry_without_abstract_is_yielded_for_counting(tmp_path):
    path = tmp_path / "list.md"
    path.write_text(
        "## First Paper\n\nIts abstract says something about graphs.\n\n"
        "## Second Paper\n\n## Third Paper\n\nAnother abstract about optimisation.\n",
        encoding="utf-8",
    )
    papers = list(sources.read(path))
    assert [(p.title, bool(p.abstract)) for p in papers] == [
        ("First Paper", True),
        ("Second Paper", False),
        ("Third Paper", True),
    ]


# -- property: any text; paragraphs of abstract length are never dropped or merged ----------

_word = st.text(st.characters(blacklist_categories=("Cs", "Cc", "Zs", "Zl", "Zp")), min_size=1, max_size=10)


@st.composite
def _paragraph(draw):
    words = draw(st.lists(_word, min_size=TITLE_MAX_WORDS + 1, max_size=60))
    seps = draw(
        st.lists(
            st.sampled_from([" ", " ", " ", "\n", "  ", "\t"]),
            min_size=len(words) - 1,
            max_size=len(words) - 1,
        )
    )
    return "".join(w + s for w, s in zip(words, [*seps, ""]))


def _squash(text: str) -> str:
    return re.sub(r"[\s\-\u00ad]", "", text)


@pytest.mark.slow  # property test: hundreds of generated inputs
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    paragraphs=st.lists(_paragraph(), min_size=1, max_size=6),
    header=st.one_of(
        st.none(),
        st.text(st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp")), min_size=1, max_size=40),
    ),
    blank=st.sampled_from(["\n\n", "\n \n", "\n\n\n", "\r\n\r\n"]),
)
def test_property_paragraphs_never_dropped_or_merged(tmp_path, paragraphs, header, blank):
    path = tmp_path / "prop.txt"
    parts = ([header.replace("\n", " ")] if header and header.strip() else []) + paragraphs
    path.write_bytes(blank.join(parts).encode("utf-8"))
    papers = list(read_text(path))
    # a one-line header may or may not be read as a paper; the paragraphs always are
    papers = papers[len(papers) - len(paragraphs) :] if len(papers) > len(paragraphs) else papers
    assert len(papers) == len(paragraphs)
    for paper, paragraph in zip(papers, paragraphs):
        assert paper.abstract
        # the reader decodes well-formed HTML entities ("&amp;", "&LT;"): either form holds it
        bodies = (_squash(paragraph), _squash(html.unescape(paragraph)))
        assert any(_squash(paper.abstract) in body for body in bodies)
        if paper.title:
            assert any(_squash(paper.title) in body for body in bodies)


@pytest.mark.slow  # property test: hundreds of generated inputs
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text())
def test_property_reader_never_crashes(tmp_path, text):
    path = tmp_path / "any.txt"
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    try:
        papers = list(read_text(path))
    except InputError:
        return  # not UTF-8 (surrogates): a clear error is the answer
    for paper in papers:
        assert paper.abstract or paper.title
