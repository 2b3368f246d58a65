"""The web search page with a misspelt query: "showing results for" the corrected words,
escaped, with a link searching the words as typed (kept by the pager); a query that is a
paper's id opens its page, its exact title shows it first."""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from atlas_fixture import web_client  # noqa: F401 - the `client` fixture, on this module's `db`
from paperatlas import Atlas

FIXTURES = Path(__file__).parent / "fixtures" / "search"


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    folder = tmp_path_factory.mktemp("web-typos")
    papers = [
        json.loads(line) for line in (FIXTURES / "papers.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    path = folder / "papers.jsonl"
    path.write_text(
        "".join(json.dumps({k: p[k] for k in ("id", "title", "abstract")}) + "\n" for p in papers),
        encoding="utf-8",
    )
    atlas = Atlas(folder / "atlas.db")
    atlas.add([path, FIXTURES / "identified.bib"], enrich=False)
    atlas.embed()
    atlas.close()
    return folder / "atlas.db"


def _href(html: str, element_id: str) -> str:
    found = re.search(rf'id="{element_id}" href="([^"]+)"', html)
    assert found, element_id
    return unescape(found.group(1))


def _first_hit(html: str) -> str:
    found = re.search(r'href="/papers/([^"?]+)"', html.split('id="results"', 1)[1])
    assert found
    return found.group(1)


def test_a_misspelt_query_says_what_it_searched_and_links_to_the_words_as_typed(client):
    html = client.get("/search", params={"q": "speculatve decodng"}).text
    corrected = re.search(r'<p id="corrected">(.*?)</p>', html, re.S)
    assert corrected and "speculative decoding" in corrected.group(1)
    assert _first_hit(html) == "specdec01"
    typed = parse_qs(urlsplit(_href(html, "search-as-typed")).query)
    assert typed == {"q": ["speculatve decodng"], "exact": ["1"]}
    as_typed = client.get("/search", params={"q": "speculatve decodng", "exact": 1}).text
    assert 'id="corrected"' not in as_typed


def test_the_pager_keeps_searching_as_typed(client):
    html = client.get("/search", params={"q": "languge modles learning", "exact": 1}).text
    assert 'id="next-page"' in html
    assert parse_qs(urlsplit(_href(html, "next-page")).query)["exact"] == ["1"]


def test_hostile_query_text_is_escaped_in_the_correction_line(client):
    html = client.get("/search", params={"q": "<img src=x onerror=alert(1)> difusion modles"}).text
    line = re.search(r'<p id="corrected">(.*?)</p>', html, re.S)
    assert line and "<img" not in line.group(1) and "&lt;img" in line.group(1)


@pytest.mark.parametrize(
    ("query", "paper"),
    [
        ("arXiv:2401.01234", "chen2024lowrank"),
        ("https://doi.org/10.1145/3580305.3599999", "rossi2023sheaf"),
        ("https://openreview.net/forum?id=Xy7Rq2LmNa", "okafor2025reward"),
    ],
)
def test_a_paper_id_opens_the_paper_page(client, query, paper):
    response = client.get("/search", params={"q": query}, follow_redirects=False)
    assert response.status_code == 303
    assert response.headers["location"] == f"/papers/{paper}"


def test_an_exact_title_shows_that_paper_first(client):
    html = client.get("/search", params={"q": "sheaf neural networks on heterophilic graphs"}).text
    assert _first_hit(html) == "rossi2023sheaf"


def test_the_search_api_reports_the_correction_and_takes_exact(client):
    found = client.get("/api/search", params={"q": "speculatve decodng", "k": 3}).json()
    assert found["corrected"] == "speculative decoding"
    assert found["hits"][0]["id"] == "specdec01"
    assert (
        client.get("/api/search", params={"q": "speculatve decodng", "exact": 1}).json()["corrected"] is None
    )


def test_the_downloads_of_a_search_as_typed_hold_its_hits_as_typed(client):
    params = {"q": "languge modles learning", "exact": 1}
    html = client.get("/search", params=params).text
    links = [unescape(u) for u in re.findall(r'href="(/download/[^"]+)"', html)]
    assert links and all(parse_qs(urlsplit(u).query).get("exact") == ["1"] for u in links)
    for as_typed in (True, False):
        query = params if as_typed else {"q": params["q"]}
        hits = [h["id"] for h in client.get("/api/search", params={**query, "k": 100}).json()["hits"]]
        answer = client.get("/download/export", params={"format": "jsonl", **query})
        assert [json.loads(line)["id"] for line in answer.text.splitlines()] == hits
        digest = client.get("/download/digest", params={"format": "md", **query}).text
        assert f"· selection · {len(hits)} papers ·" in digest
    typed = client.get("/api/search", params={**params, "k": 100}).json()["hits"]
    assert [h["id"] for h in typed] != hits  # the corrected words find other papers
