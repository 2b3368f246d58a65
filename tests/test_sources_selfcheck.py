"""The readers judge their own reading (`sources.selfcheck`): a reading measured against the
file's own text, a warning naming what looked wrong when the shipped model finds it likely
not whole, and a refusal when one record is all that was read of a file that repeats a shape
many times."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from paperatlas import Atlas, sources
from paperatlas.errors import InputError
from paperatlas.filters import Filters
from paperatlas.paper import Paper
from paperatlas.sources import ReadReport, selfcheck
from paperatlas.sources.field_signs import cut, dressed, heading, link_like, marked_up, person
from paperatlas.sources.selfcheck import FEATURES, Model, Reading, file_text, judge, refusal, shipped_model

FIX = Path(__file__).parent / "fixtures"
ONE_BLOCK = FIX / "selfcheck" / "publications_one_block.md"  # 24 entries of a publications page
SELF = "this reading looks incomplete"


def _self_warnings(report: ReadReport) -> list[str]:
    return [w for w in report.warnings if w.startswith(SELF)]


def test_one_record_from_a_file_of_many_list_items_is_refused():
    report = ReadReport()
    try:
        papers = list(sources.read(ONE_BLOCK, report))
    except InputError as exc:
        message = str(exc)
        assert message.startswith(f"{ONE_BLOCK}:1: read as a single paper")
        assert "24 list items" in message and len(message.splitlines()) == 1
        return
    # a record finder that reads the entries is as good: never one "paper" for 24
    assert len(papers) == 24 and all(p.authors for p in papers)


def test_add_refuses_it_and_leaves_the_store_as_it_was(cli, tmp_path):
    good = tmp_path / "good.md"
    good.write_text((FIX / "unseen" / "bracket_headings.md").read_text(encoding="utf-8"), encoding="utf-8")
    code, _, _ = cli("add", good, "--list", "kept")
    assert code == 0
    code, _, err = cli("add", ONE_BLOCK, "--list", "pubs")
    with Atlas(tmp_path / "atlas.db") as atlas:
        kept = atlas.papers(filters=Filters(list_name="kept"))
        pubs = atlas.papers(filters=Filters(list_name="pubs"))
    assert len(kept) == 10
    if code == 2:
        assert f"{ONE_BLOCK.name}:1: read as a single paper" in err and "Traceback" not in err
        assert pubs == []
    else:  # read whole by a better record finder
        assert code == 0 and len(pubs) == 24


def test_refusal_needs_one_record_and_a_repeated_shape():
    text = file_text(ONE_BLOCK, "markdown")
    assert text is not None and text.structures["list items"] == 24
    one, two = Reading(), Reading()
    papers = [Paper(title=f"Entry {i}", authors=["J. Varga"]) for i in range(2)]
    one.see(papers[0])
    two.see(papers[0])
    two.see(papers[1])
    assert (
        refusal(one, text)
        == "read as a single paper, yet the file has 24 list items: its records were not found"
    )
    assert refusal(two, text) is None


def test_the_warning_says_what_looked_wrong_in_the_file_s_own_numbers():
    """A reading that kept 3 of the file's 21 papers, judged by a model weighing only the share
    of its links to papers missed: the warning gives both counts."""
    path = FIX / "unseen" / "awesome_numbered.md"
    papers = list(sources.read(path))
    links = {u for p in papers for u in p.urls}
    assert len(links) == 21
    partial = Reading()
    for paper in papers[:3]:
        partial.see(paper)
    # the share of links missed and its count's log: one sign, said once
    weights = tuple(1.0 if f in ("paper_links_missed", "log_paper_links_missed") else 0.0 for f in FEATURES)
    model = Model(FEATURES, (0.0,) * len(FEATURES), (1.0,) * len(FEATURES), weights, bias=-3.5, threshold=0.5)
    text = file_text(path, "markdown")
    assert text is not None
    judged = judge(partial, text, "markdown", 0, model)
    assert judged.warn and judged.features["paper_links_missed"] == pytest.approx(18 / 21)
    assert judged.reasons == ["21 links to papers in the file, 3 on papers read"]
    whole = Reading()
    for paper in papers:
        whole.see(paper)
    assert not judge(whole, text, "markdown", 0, model).warn


@pytest.mark.parametrize(
    "name", ["unseen/awesome_numbered.md", "unseen/bracket_headings.md", "unseen/digest_table_zh.md"]
)
def test_lists_read_whole_are_judged_and_not_warned_about(name):
    report = ReadReport()
    list(sources.read(FIX / name, report))
    assert report.judgement is not None
    assert report.judgement.chance < shipped_model().threshold, report.judgement.reasons
    assert not _self_warnings(report)


def test_the_shipped_model_names_every_feature_it_weighs():
    model = shipped_model()
    assert model.names == FEATURES
    assert len(model.weights) == len(model.mean) == len(model.scale) == len(FEATURES)
    assert 0 < model.threshold < 1 and all(s > 0 for s in model.scale)
    assert not re.search(r"nan|inf", repr(model.weights))


BOLD_BR = FIX / "selfcheck" / "accepted_bold_br.md"  # 24 `<b>Title</b><br/>` entries


def test_a_page_read_as_its_heading_alone_is_warned_about(cli):
    """Authors with a comma inside their affiliation (`Ann Lee (University of California,
    Davis)`) once made the page read as one paper, its heading, with none of the readers'
    rules saying so; the self-check does."""
    report = ReadReport()
    papers = list(sources.read(BOLD_BR, report))
    if len(papers) == 24 and all(p.authors for p in papers):
        return  # read whole by a better record finder: nothing to warn about
    warnings = _self_warnings(report)
    assert warnings and "1 of 1 papers have no authors" in warnings[0]
    code, _, err = cli("add", BOLD_BR)
    assert code == 0
    assert f"warning: {BOLD_BR}: this reading looks incomplete (self-check: " in " ".join(err.split())


# -- fields that look wrong (`sources.field_signs`, pooled as `odd_fields`) ---------------


@pytest.mark.parametrize(
    ("sign", "text", "expected"),
    [
        (dressed, "[Kondylakis 18] Coconut: A Scalable Bottom-up Approach for Data Series", True),
        (dressed, "Meta-DETR: Few-Shot Object Detection (CVPR 2021)", True),
        (dressed, "Coconut: A Scalable Bottom-up Approach for Data Series", False),
        (marked_up, r"Late puerperal hemorrhage in Klippel\textendash Trenaunay syndrome", True),
        (marked_up, "Deep <i>in situ</i> sequencing", True),
        (marked_up, "A Multitask Evaluation of {C}hat{GPT}", False),  # braces add no words
        (cut, "Efficient Natural Language Response Suggestion for", True),
        (cut, "Document Spanners for Extracting Incomplete Information: Expressiveness and", True),
        (cut, "Attention Is All You Need", False),
        (heading, "Accepted Papers", True),
        (heading, "CVPR 2024", True),
        (heading, "Surveys:", True),
        (heading, "ADAPT", False),  # a coined name alone is as often a paper as a heading
        (heading, "Chirality Nets for Human Pose Regression", False),
        (person, "Kaiming He", True),
        (person, "He, Kaiming", True),
        (person, "F. Elsheimy", True),
        (person, "张伟", True),
        (person, "NeurIPS 2023", False),
        (person, "https://arxiv.org/abs/2401.00001", False),
        (link_like, "https://arxiv.org/abs/2401.00001", True),
        (link_like, "/img/PGR004.pdf", True),
        (link_like, "2401.00001v2", True),
        (link_like, "Unmasking", False),
        (link_like, "2024.pdf", False),
    ],
)
def test_field_signs_tell_a_misread_field(sign, text, expected):
    assert sign(text) is expected


def _odd_fields_model() -> Model:
    """A model weighing only the share of papers with a field that looks wrong."""
    weights = tuple(1.0 if f == "odd_fields" else 0.0 for f in FEATURES)
    return Model(FEATURES, (0.0,) * len(FEATURES), (0.1,) * len(FEATURES), weights, bias=-2.0, threshold=0.5)


def test_the_right_count_with_wrong_fields_is_warned_about_naming_them():
    """Ten papers, the right count: four titles cut at a line's end whose rest became the
    authors (words of the other titles), as a page of `<b>Title</b><br>Authors` entries
    with wrapped titles reads. No count of the file tells this from a whole reading; the
    fields do."""
    path = FIX / "unseen" / "awesome_numbered.md"  # any file: only the papers' fields weigh here
    text = file_text(path, "markdown")
    titles = [
        ("Object Abstraction in Visual Model-Based", ["Reinforcement Learning"]),
        ("Graph Structured Prediction Energy Networks for", ["Structured Prediction"]),
        ("Learning Latent Dynamics for Planning from", ["Planning Dynamics"]),
        ("Differentiable Mapping Networks: Learning Task-Oriented Latent Maps with", ["Latent Maps"]),
    ]
    whole_titles = [(f"Paper {word} Reinforcement Learning Study", ["Ada Lovelace"]) for word in "ABCDEF"]
    bad, good = Reading(), Reading()
    for title, authors in titles + whole_titles:
        bad.see(Paper(title=title, authors=authors, urls=["https://arxiv.org/abs/2401.00001"]))
    for i, (title, _) in enumerate(titles + whole_titles):
        good.see(
            Paper(
                title=title.removesuffix(" for").removesuffix(" from").removesuffix(" with") + f" {i}",
                authors=["Ada Lovelace"],
                urls=[f"https://arxiv.org/abs/2401.0000{i}"],
            )
        )
    judged = judge(bad, text, "markdown", 0, _odd_fields_model())
    assert judged.features["odd_fields"] == pytest.approx(0.4)
    assert judged.warn
    assert judged.reasons == [
        "40% of papers have a field that looks wrong (4 first authors made of title words, e.g. "
        "'Reinforcement Learning'; 3 titles cut short)"
    ]
    assert not judge(good, text, "markdown", 0, _odd_fields_model()).warn


PDF_FIELD = FIX / "selfcheck" / "pubs_pdf_field.bib"  # 8 entries whose `pdf` field is a file name with spaces


def test_links_that_are_words_are_named_by_add(cli, monkeypatch):
    """A reading whose links are the words of a file name (`pdf={Tidal Sketches ... .pdf}`
    read as eleven links): `add` warns, naming the sign and an example."""
    monkeypatch.setattr(selfcheck, "shipped_model", _odd_fields_model)
    report = ReadReport()
    papers = list(sources.read(PDF_FIELD, report))
    assert len(papers) == 8
    junk = [p for p in papers if any(not link_like(u) for u in (*p.urls, *p.code_urls))]
    warnings = _self_warnings(report)
    if not junk:  # a reader that keeps the file name whole: nothing looks wrong
        assert not warnings
        return
    assert len(warnings) == 1
    assert warnings[0].endswith(
        "100% of papers have a field that looks wrong (8 links that are a word or a file name, e.g. 'Tidal')"
    )
    code, _, err = cli("add", PDF_FIELD)
    assert code == 0
    assert f"warning: {PDF_FIELD}: this reading looks incomplete" in " ".join(err.split())
    assert "8 links that are a word or a file name" in " ".join(err.split())
