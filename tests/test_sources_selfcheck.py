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
from paperatlas.sources import ReadReport
from paperatlas.sources.quality import names_institution
from paperatlas.sources.selfcheck import (
    FEATURES,
    Model,
    Reading,
    file_text,
    judge,
    person_names,
    refusal,
    shipped_model,
)

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


@pytest.mark.parametrize("name", ["dress/group_authors.md", "dress/group_authors_below.md"])
def test_a_group_that_signs_as_author_is_no_institution(name):
    """`Northfield University Research Team` is the author the reader keeps (a group that signs
    the paper): the self-check takes it so too, and the list, read whole, gets no warning."""
    report = ReadReport()
    papers = list(sources.read(FIX / name, report))
    assert any("Research Team" in p.authors[0] for p in papers if p.authors)
    assert report.warnings == []
    assert report.judgement is not None and report.judgement.features["institution_authors"] == 0


@pytest.mark.parametrize(
    ("author", "institution"),
    [
        ("Northfield University Research Team", False),
        ("The Open Grasp Consortium", False),
        ("Department of Computer Science, Northfield University", True),
        ("Lake Institute of Technology", True),
        ("Mira Osei", False),
    ],
)
def test_one_judge_says_which_authors_name_an_institution(author, institution):
    assert names_institution(author) is institution


@pytest.mark.parametrize("name", ["lists/nested.json", "lists/copilot_rating.json"])
def test_a_short_title_in_title_case_is_no_list_of_person_names(name):
    """`Nested One`, `Rated Paper`: titles, read whole, that the self-check once took for
    author lists and warned about."""
    report = ReadReport()
    papers = list(sources.read(FIX / name, report))
    assert papers and report.judgement is not None
    assert report.judgement.features["author_titles"] == 0
    assert not _self_warnings(report)


@pytest.mark.parametrize(
    ("title", "names"),
    [
        ("A Good Record", False),
        ("Reading Wide Files", False),
        ("Ann Lee, Bo Chen", True),
        ("Lee, A. and Chen, B.", True),
    ],
)
def test_a_title_is_person_names_when_it_lists_two_or_more(title, names):
    assert person_names(title) is names
