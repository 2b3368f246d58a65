"""`Filters` (paperatlas/filters.py): one value parsed from the CLI's options and from a
page's query string, applied by the store to every listing, count, search, similar,
recommendation and export; an atlas older than the triage tables still reads."""

from __future__ import annotations

import io
import json
import shutil
import sqlite3
from collections.abc import Callable

import pytest

from atlas_fixture import copy_atlas, web_client  # noqa: F401 - web_client: the `client` fixture, on this module's `db`
from filters_fixture import BATCH, EXTRA, TAGGED, marks
from paperatlas import Atlas, Filters
from paperatlas.filters import STATES, FilterError

EXTRA_IDS = {r["id"] for r in EXTRA}


@pytest.fixture(scope="module")
def built(filters_atlas_template, tmp_path_factory):
    path = copy_atlas(filters_atlas_template, tmp_path_factory, "filters")
    return path, marks(path)


@pytest.fixture(scope="module")
def db(built):
    return built[0]


@pytest.fixture(scope="module")
def marked(built):
    return built[1]


@pytest.fixture(scope="module")
def atlas(db):
    a = Atlas(db, read_only=True)
    yield a
    a.close()


def _cases(atlas: Atlas, marked: dict[str, list[str]]) -> list[tuple[Filters, Callable[[dict], bool]]]:
    """Each filter alone, with what it should keep, judged on the unfiltered rows."""
    rows = atlas.papers()
    area = max((r["area"] or r["predicted_area"] for r in rows if r["area"] or r["predicted_area"]), key=str)
    kinds = [r["kind"] for r in rows if r["kind"]]
    kind = max(set(kinds), key=kinds.count)
    unread = set(marked["read"]) | set(marked["skipped"])
    return [
        (Filters(list_name="extra"), lambda r: r["id"] in EXTRA_IDS),
        (
            Filters(area=area),
            lambda r: r["area"] == area or (r["area"] is None and r["predicted_area"] == area),
        ),
        (Filters(kind=kind), lambda r: r["kind"] == kind),
        (Filters(decision="Accept"), lambda r: (r["decision"] or "").startswith("Accept")),
        (Filters(has_code=True), lambda r: bool(r["has_code"])),
        (Filters(has_code=False), lambda r: not r["has_code"]),
        (Filters(tag=TAGGED), lambda r: r["id"] in marked[TAGGED]),
        (Filters(state="read"), lambda r: r["id"] in marked["read"]),
        (Filters(state="skipped"), lambda r: r["id"] in marked["skipped"]),
        (Filters(state="saved"), lambda r: r["id"] in marked["saved"]),
        (Filters(state="liked"), lambda r: r["id"] in marked["liked"]),  # a dislike is no like
        (Filters(state="unread"), lambda r: r["id"] not in unread),
    ]


def test_each_filter_narrows_listing_count_search_and_similar(atlas, marked):
    every = atlas.papers()
    coded = {r["id"] for r in every if r["has_code"]}
    assert "extra-code" in coded and "extra-plain" not in coded  # its code link, as enrich read it
    for filters, keeps in _cases(atlas, marked):
        expected = {r["id"] for r in every if keeps(r)}
        assert 0 < len(expected) < len(every), filters
        got = [r["id"] for r in atlas.papers(filters)]
        assert set(got) == expected and len(got) == len(expected), filters
        assert atlas.count_papers(filters) == len(expected), filters
        # a search for a paper the filters keep finds it, and only papers they keep
        title = next(r["title"] for r in every if r["id"] in expected)
        hits = atlas.search(title, k=200, filters=filters).hits
        assert hits and {h.id for h in hits} <= expected, filters
        similar = atlas.similar(text=title, k=50, filters=filters).hits
        assert {h.id for h in similar} <= expected, filters


def test_filters_combine(atlas, marked):
    both = Filters(list_name="fixture", tag=BATCH, state="unread", decision="Accept")
    rows = atlas.papers(both)
    assert rows
    assert all(r["id"] in marked[BATCH] and r["id"] not in marked["read"] + marked["skipped"] for r in rows)
    assert all(r["decision"].startswith("Accept") for r in rows)


def test_exports_and_recommendations_take_the_filters(atlas, marked):
    out = io.StringIO()
    assert atlas.export("jsonl", out, Filters(tag=TAGGED)) == len(marked[TAGGED])
    assert {json.loads(line)["id"] for line in out.getvalue().splitlines()} == set(marked[TAGGED])
    picks = atlas.recommend(k=50, filters=Filters(list_name="extra"))
    assert picks and {p.paper_id for p in picks} <= EXTRA_IDS


def test_an_atlas_older_than_the_triage_tables_still_reads(db, tmp_path, marked):
    """Read-only, an atlas of schema 13 has no tags and no states: a tag or a set state
    matches nothing, `unread` every paper; likes (older) still count."""
    old = tmp_path / "old.db"
    shutil.copy(db, old)
    conn = sqlite3.connect(old)
    conn.executescript(
        "DROP TABLE paper_state; DROP TABLE paper_notes; DROP TABLE paper_tags; PRAGMA user_version = 13;"
    )
    conn.close()
    old.chmod(0o444)
    with Atlas(old, read_only=True) as reader:
        total = len(reader.papers())
        assert reader.papers(Filters(tag=TAGGED)) == []
        assert reader.papers(Filters(state="saved")) == []
        assert reader.count_papers(Filters(state="unread")) == total
        assert {r["id"] for r in reader.papers(Filters(state="liked"))} == set(marked["liked"])
        assert reader.search("graph", filters=Filters(tag=TAGGED)).hits == []


def test_filters_refuse_values_no_paper_can_have():
    with pytest.raises(FilterError, match="unknown kind 'poem'"):
        Filters(kind="poem")
    with pytest.raises(FilterError, match="unknown state 'later'"):
        Filters.parse(state="later")
    with pytest.raises(FilterError, match="has_code must be 1 or 0"):
        Filters.parse(has_code="yes")
    assert Filters.parse(list_name=" ", area="", has_code="0", state=" saved ") == Filters(
        has_code=False, state="saved"
    )
    assert set(STATES) == {"read", "skipped", "saved", "liked", "unread"}
    assert Filters.parse(tag=" #To  Cite ").tag == "to-cite"  # as tags are stored


# every filter, as the CLI's options and as a page's query parameters
SAME = [
    (
        ["--list", "fixture", "--decision", "Accept", "--state", "unread"],
        {"list": "fixture", "decision": "Accept", "state": "unread"},
    ),
    (["--tag", TAGGED, "--has-code"], {"tag": TAGGED, "has_code": "1"}),
    (["--tag", BATCH, "--no-code", "--state", "liked"], {"tag": BATCH, "has_code": "0", "state": "liked"}),
    (["--kind", "method", "--list", "fixture"], {"kind": "method", "list": "fixture"}),
]


@pytest.mark.parametrize("options, query", SAME)
def test_the_cli_and_the_web_filter_alike(cli, client, db, options, query):
    code, out, err = cli(
        "search", "graph neural networks", "-k", 100, "--json", *options, "--db", db, use_db=False
    )
    assert code == 0, err
    from_cli = [h["id"] for h in json.loads(out)["hits"]]
    answer = client.get("/api/search", params={"q": "graph neural networks", "k": 100, **query})
    assert answer.status_code == 200, answer.text
    assert from_cli == [h["id"] for h in answer.json()["hits"]]


def test_a_bad_filter_is_one_line_from_the_cli_and_a_400_from_the_web(cli, client, db):
    code, out, err = cli("ls", "--state", "later", "--db", db, use_db=False)
    assert code == 2 and "later" in err
    for path in ("/search?q=graph&state=later", "/papers?state=later", "/api/search?q=graph&kind=poem"):
        answer = client.get(path)
        assert answer.status_code == 400, path
    assert client.get("/search?q=graph&list=nope").status_code == 404
