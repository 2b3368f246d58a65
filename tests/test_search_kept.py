"""A person's own notes and tags as a search signal (search/kept_match.py): a query finds
the papers whose note (English or Chinese) or tags hold its words, the hit says so, the
page escapes the note, and the paper's own text ranks as before when no note matches."""

from __future__ import annotations

import threading

import pytest
from fastapi.testclient import TestClient

from atlas_fixture import FIXTURE
from paperatlas import Atlas
from paperatlas.search.kept_match import query_words
from paperatlas.store import MIGRATIONS, Store
from paperatlas.web.app import create_app

PAPER = "robots-02"
OTHER = "unlearning-00"


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "atlas.db"
    with Atlas(path) as atlas:
        atlas.add([FIXTURE], list_name="fixture", enrich=False)
    return path


def _ids(result) -> list[str]:
    return [h.id for h in result.hits]


def test_a_query_finds_the_paper_whose_note_holds_its_words(db):
    with Atlas(db) as atlas:
        assert PAPER not in _ids(atlas.search("wombat checklist", exact=True))
        atlas.set_note(PAPER, "Use as the **wombat** baseline; checklist for the reading group.")
        result = atlas.search("wombat checklist", exact=True)
    [hit] = [h for h in result.hits if h.id == PAPER]
    assert hit.rank == 1 and "wombat" in (hit.in_note or "")
    assert "in your note" in hit.why() and "notes" in result.signals


def test_a_chinese_note_is_found_by_a_chinese_query(db):
    with Atlas(db) as atlas:
        atlas.set_note(OTHER, "组会上要讲：遗忘方法的基线")
        result = atlas.search("组会基线")
    assert result.hits[0].id == OTHER and "组会" in (result.hits[0].in_note or "")


def test_a_tag_holding_the_query_words_ranks_its_paper_and_names_the_tag(db):
    with Atlas(db) as atlas:
        atlas.tag([PAPER], ["wombat-project", "later"])
        result = atlas.search("wombat project", exact=True)
    assert result.hits[0].id == PAPER
    assert result.hits[0].tagged == ["wombat-project"] and result.hits[0].in_note is None


def test_a_note_outside_the_filters_is_not_a_hit(db):
    from paperatlas.filters import Filters

    with Atlas(db) as atlas:
        atlas.set_note(PAPER, "wombat checklist")
        assert atlas.search("wombat checklist", filters=Filters(tag="nothing-tagged")).hits == []


def test_notes_that_do_not_match_leave_the_ranking_as_it_was(db):
    with Atlas(db) as atlas:
        before = [(h.id, h.score) for h in atlas.search("robot grasping", k=30).hits]
        atlas.set_note(PAPER, "wombat")
        atlas.tag([OTHER], ["quokka"])
        after = atlas.search("robot grasping", k=30)
    assert [(h.id, h.score) for h in after.hits] == before and before
    assert "notes" not in after.signals


def test_query_words_split_chinese_into_pairs_and_drop_single_letters():
    assert query_words("Wombat a 3 组会基线") == ["wombat", "3", "组会", "会基", "基线"]


def test_a_number_or_word_matches_at_the_start_of_a_word_only(db):
    with Atlas(db) as atlas:
        atlas.set_note(PAPER, "wombat meeting 3: the models to compare")
        atlas.set_note(OTHER, "wombat meeting 13 and 30: the models to compare")
        hits = atlas.search("wombat meeting 3 model", exact=True).hits
    other = next(h for h in hits if h.id == OTHER)
    assert hits[0].id == PAPER and other.rank > 1 and "13" in (other.in_note or "")
    assert hits[0].score > other.score


def test_a_hostile_note_is_escaped_on_the_search_page(db):
    with Atlas(db) as atlas:
        atlas.set_note(PAPER, 'wombat <script>alert("x")</script><img src=x onerror=alert(1)>')
        atlas.tag([PAPER], ["wombat"])
    with TestClient(create_app(db), base_url="http://127.0.0.1") as client:
        html = client.get("/search", params={"q": "wombat"}).text
    assert 'class="in-note"' in html and 'class="tagged"' in html and "your notes and tags" in html
    assert "<script>alert" not in html and "<img src=x" not in html
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in html


def test_a_read_only_atlas_older_than_the_kept_tables_still_searches(tmp_path):
    path = tmp_path / "old.db"
    store = Store(path)
    with Atlas(path) as atlas:
        atlas.add([FIXTURE], list_name="fixture", enrich=False)
    with store.transaction():
        for table in ("paper_state", "paper_notes", "paper_tags"):
            store.conn.execute(f"DROP TABLE {table}")
        store.conn.execute(f"PRAGMA user_version = {len(MIGRATIONS) - 1}")
    store.close()
    with Atlas(path, read_only=True) as atlas:
        result = atlas.search("robot grasping")
    assert result.hits and all(h.in_note is None and h.tagged == [] for h in result.hits)


def test_with_nothing_kept_no_word_is_made_a_pattern_and_a_tag_alone_is_still_found(db, monkeypatch):
    """A search reads the notes and tags first: with none, the query's words are never
    compiled into patterns (one per distinct word, for every search); one tag is enough
    for them to be."""
    import paperatlas.search.kept_match as kept_match

    made: list[str] = []
    real = kept_match._matcher
    this_thread = threading.get_ident()

    def counting(word):
        # A web server's warm-up search, left running by another test in this process,
        # may compile its own words meanwhile: count only this test's.
        if threading.get_ident() == this_thread:
            made.append(word)
        return real(word)

    monkeypatch.setattr(kept_match, "_matcher", counting)
    with Atlas(db) as atlas:
        before = _ids(atlas.search("wombat checklist", exact=True))
        assert made == []
        atlas.tag([PAPER], ["wombat-checklist"])
        after = atlas.search("wombat checklist", exact=True)
    assert made == ["wombat", "checklist"] and PAPER not in before
    assert after.hits[0].id == PAPER and after.hits[0].tagged == ["wombat-checklist"]
