"""The paper page shows what the list holds: the list's TL;DR beside the gist, each
reviewer's score and their spread, links to read it (PDF, OpenReview, arXiv, DOI, code) and
the paper's BibTeX as the export writes it, all escaped."""

from __future__ import annotations

import html
import io
import re
from pathlib import Path

import pytest

from paperatlas.identifiers import reading_links
from paperatlas.web.reviews import review_scores

FIXTURE = Path(__file__).parent / "fixtures" / "paper_page" / "iclr.jsonl"


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    from paperatlas import Atlas

    path = tmp_path_factory.mktemp("paper-page") / "atlas.db"
    with Atlas(path) as atlas:
        atlas.add([FIXTURE], list_name="iclr", enrich=False)
    return path


@pytest.fixture(scope="module")
def client(db):
    from fastapi.testclient import TestClient

    from paperatlas.web.app import create_app

    with TestClient(create_app(db), base_url="http://127.0.0.1") as c:
        yield c


def _by_id(page: str, element_id: str) -> str:
    match = re.search(rf'id="{element_id}"[^>]*>(.*?)</(?:dd|p|pre|div)>', page, re.DOTALL)
    assert match, f"no #{element_id} on the page"
    return match.group(1)


def test_reviewer_scores_spread_and_final_scores(client):
    page = client.get("/papers/Rev1ewAbCd").text
    scores = _by_id(page, "review-scores")
    assert re.findall(r'class="score">([^<]+)<', scores)[:4] == ["4", "6", "6", "6"]
    assert "4 reviewers · range 4–6 · mean 5.50" in scores
    final = _by_id(page, "review-scores-final")
    assert re.findall(r'class="score">([^<]+)<', final) == ["6", "6", "8", "6"]
    assert "mean 6.50" in final


def test_the_lists_tldr_is_shown_escaped(client):
    page = client.get("/papers/Rev1ewAbCd").text
    tldr = _by_id(page, "paper-tldr")
    assert "<script>" not in tldr and "&lt;script&gt;" in tldr
    assert (
        html.unescape(tldr)
        == "Weigh reviewers by calibration <script>alert(1)</script> & halve the disagreement."
    )


def test_links_to_read_and_code(client):
    page = client.get("/papers/Rev1ewAbCd").text
    links = dict(
        re.findall(r'<a class="button" href="([^"]+)"[^>]*data-kind="(\w+)"', _by_id(page, "read-links"))
    )
    assert links == {
        "https://openreview.net/pdf?id=Rev1ewAbCd": "pdf",
        "https://openreview.net/forum?id=Rev1ewAbCd": "openreview",
        "https://github.com/example/sparse-reviewers": "code",
    }
    other = client.get("/papers/Plain0Xy12").text
    kinds = re.findall(r'href="([^"]+)"[^>]*data-kind="(\w+)"', _by_id(other, "read-links"))
    assert kinds == [
        ("https://arxiv.org/pdf/2501.01234", "pdf"),
        ("https://arxiv.org/abs/2501.01234", "arxiv"),
        ("https://doi.org/10.1145/3600000.3600001", "doi"),
    ]
    assert 'id="review-scores"' not in other and 'id="paper-tldr"' not in other  # the list has none


def test_bibtex_is_the_exports_entry_with_the_note(client, db):
    from paperatlas import Atlas
    from paperatlas.report.export import export_papers

    assert (
        client.post("/api/note", json={"id": "Rev1ewAbCd", "note": "read with {braces} & care"}).status_code
        == 200
    )
    page = client.get("/papers/Rev1ewAbCd").text
    shown = html.unescape(_by_id(page, "bibtex"))
    with Atlas(db) as atlas:
        out = io.StringIO()
        export_papers(atlas.store, "bibtex", out, ids=["Rev1ewAbCd"])
    assert shown == out.getvalue().strip()  # the entry, without the blank line that parts entries
    assert "@inproceedings{Rev1ewAbCd," in shown and "read with" in shown
    assert 'id="copy-bibtex"' in page and "hidden>" in page.split('id="copy-bibtex"')[1].split("</button>")[0]


def test_reading_links_only_from_ids_that_parse():
    assert reading_links({"openreview": '"><script>', "arxiv": "javascript:alert(1)", "doi": "nope"}) == []
    own_pdf = reading_links({"arxiv": "2501.01234"}, ["https://example.org/paper.pdf"])
    assert own_pdf[0] == ("pdf", "https://example.org/paper.pdf")
    assert reading_links({}, ["javascript:alert(1)//.pdf"]) == []


def test_review_scores_leave_out_what_is_not_a_score():
    scores = review_scores({"ratings": [3, "5", "n/a", None, True, float("nan"), 8.5]})
    assert scores is not None
    assert scores.shown == ["3", "5", "8.5"] and scores.range_text == "3–8.5"
    assert review_scores({"ratings": "6;4"}) is None and review_scores({}) is None
