"""Follows (saved searches, authors, topics), their Atom feed (read back with feedparser),
"new since my last visit" per list, and the personal .ics schedule (read back with
icalendar), through the CLI and `Atlas` on a small conference program."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import feedparser
import icalendar
import pytest

from paperatlas import Atlas
from paperatlas.api import web_reads

PROGRAM = Path(__file__).parent / "fixtures" / "follow" / "program.json"
MORE = Path(__file__).parent / "fixtures" / "follow" / "more.jsonl"


def _earlier(db: Path, papers: bool = True, follows: bool = False, seen: bool = False) -> None:
    """What was stored so far happened yesterday (the store's clock counts seconds; a test
    runs within one)."""
    with Atlas(db) as atlas:
        if papers:
            atlas.store.conn.execute("UPDATE papers SET added_at = datetime('now', '-1 day')")
        if follows:
            atlas.store.conn.execute("UPDATE follows SET created_at = datetime('now', '-2 day')")
        if seen:
            atlas.store.conn.execute("UPDATE list_seen SET seen_upto = datetime('now', '-1 day')")


def test_author_follow_matches_case_and_accents_of_papers_added_after_it(cli, tmp_path):
    code, _, _ = cli("add", str(MORE), "--list", "older")
    assert code == 0
    _earlier(cli.db)  # the older list was there before the follow
    code, out, _ = cli("follow", "author", "jose  GARCIA lopez")
    assert code == 0 and "following #1" in out
    code, _, _ = cli("add", str(PROGRAM), "--list", "prog")
    assert code == 0
    feed = tmp_path / "me.atom"
    code, _, err = cli("feed", "--out", str(feed))
    assert code == 0 and "wrote 1 paper" in err
    parsed = feedparser.parse(feed.read_text(encoding="utf-8"))
    assert not parsed.bozo
    # the older list's paper by the same author came before the follow: not in the feed
    assert [e.title for e in parsed.entries] == ["Gradient Fill Insertion for Lithography"]
    entry = parsed.entries[0]
    assert [a.name for a in entry.authors] == ["José García-López", "Mina Park"]
    assert entry.link == "https://example.org/papers/prog1"
    assert [t.label for t in entry.tags] == ["author: jose GARCIA lopez"]
    assert entry.summary.startswith("We insert metal fill")
    # a second feed holds only what came since the first
    code, _, err = cli("feed", "--out", str(tmp_path / "again.atom"))
    assert code == 0 and "wrote 0 papers" in err
    assert feedparser.parse(str(tmp_path / "again.atom")).entries == []


def test_saved_search_keeps_its_filters_and_feed_escapes_hostile_text(cli, tmp_path):
    cli("add", str(PROGRAM), "--list", "prog")
    cli("add", str(MORE), "--list", "older")
    code, out, _ = cli("follow", "search", "timing closure", "--list", "prog")
    assert code == 0 and "search: timing closure (list_name=prog)" in out
    _earlier(cli.db, papers=False, follows=True)
    feed = tmp_path / "me.atom"
    assert cli("feed", "--out", str(feed), "--site-url", "http://127.0.0.1:8000")[0] == 0
    raw = feed.read_text(encoding="utf-8")
    assert "<script>" not in raw  # the title's markup is text in the feed
    parsed = feedparser.parse(raw)
    # the older list's timing paper is outside the search's list filter
    assert [e.id for e in parsed.entries] == ["urn:paperatlas:paper:PROG3"]
    assert parsed.entries[0].title == "Timing Closure by Reinforcement Learning <script>alert(1)</script>"
    assert parsed.entries[0].link == "http://127.0.0.1:8000/papers/PROG3"


def test_follow_again_keeps_one_and_rm_unknown_is_one_line(cli):
    cli("add", str(PROGRAM), "--list", "prog")
    assert "following #1" in cli("follow", "author", "Mina Park")[1]
    assert "already following #1" in cli("follow", "author", "Mina Park")[1]
    code, out, _ = cli("follow", "ls")
    assert code == 0 and "author: Mina Park" in out
    code, _, err = cli("follow", "rm", "7")
    assert code == 2 and "no follow 7" in err and len(err.strip().splitlines()) == 1
    assert cli("follow", "rm", "1")[0] == 0
    assert "nothing followed yet" in cli("follow", "ls")[1]
    code, _, err = cli("follow", "search", "   ")
    assert code == 2 and "needs words" in err


def test_new_since_last_visit_per_list(cli):
    cli("add", str(PROGRAM), "--list", "prog")
    code, out, _ = cli("ls", "--list", "prog", "--new")
    assert code == 0 and "3 papers" in out  # a list never seen is all new
    code, out, _ = cli("seen", "prog")
    assert code == 0 and "3 new papers marked seen" in out
    assert "0 papers" in cli("ls", "--list", "prog", "--new")[1]
    _earlier(cli.db, seen=True)  # looked at yesterday; the list is added again today, grown
    cli("add", str(MORE), "--list", "prog")
    code, out, _ = cli("ls", "--list", "prog", "--new")
    assert code == 0 and "2 papers" in out and "Memory Compilers" in out and "Lithography" not in out
    with Atlas(cli.db) as atlas:
        assert web_reads.new_counts(atlas) == {"prog": 2}
    code, _, err = cli("ls", "--new")
    assert code == 2 and "--new needs --list" in err


def test_schedule_of_saved_and_liked_papers_parses_as_icalendar(cli, tmp_path):
    cli("add", str(PROGRAM), "--list", "prog")
    cli("like", "PROG1", "PROG3")
    with Atlas(cli.db) as atlas:
        atlas.store.conn.execute("INSERT INTO paper_state(paper_id, state) VALUES ('PROG2', 'saved')")
    ics = tmp_path / "me.ics"
    code, _, err = cli("schedule", "--out", str(ics))
    assert code == 0 and "wrote 2 events" in err and "1 of 3 saved or liked papers have no time" in err
    cal = icalendar.Calendar.from_ical(ics.read_bytes())
    events = {str(e["uid"]): e for e in cal.walk("VEVENT")}
    assert set(events) == {"PROG1@paperatlas", "PROG2@paperatlas"}  # PROG3 has no time
    fill = events["PROG1@paperatlas"]
    # 1:30pm PDT is 20:30 UTC
    assert fill.decoded("dtstart") == datetime(2026, 7, 28, 20, 30, tzinfo=UTC)
    assert fill.decoded("dtend") == datetime(2026, 7, 28, 22, 0, tzinfo=UTC)
    assert str(fill["location"]) == "Room 202AB"
    assert "Session: Differentiable Manufacturing" in str(fill["description"])
    analog = events["PROG2@paperatlas"]
    assert str(analog["location"]) == "Ballroom A; West Hall"  # a ';' survives the escaping
    start = analog.decoded("dtstart")
    assert start.utcoffset().total_seconds() == -7 * 3600 and start.hour == 10
    assert cal.walk("VTIMEZONE")  # the named zone is defined in the file


def test_follow_rows_go_to_another_atlas(cli, tmp_path):
    cli("add", str(PROGRAM), "--list", "prog")
    cli("follow", "search", "analog placement", "--kind", "method")
    cli("follow", "author", "Ana Lima")
    cli("seen", "prog")
    with Atlas(cli.db) as atlas:
        data = atlas.follow_data()
    assert [f["kind"] for f in data["follows"]] == ["search", "author"]
    assert data["follows"][0]["detail"] == {"filters": {"kind": "method"}}
    with Atlas(tmp_path / "other.db") as other:
        other.put_follow_data(data)
        other.put_follow_data(data)  # importing twice adds nothing
        assert [(f.kind, f.value, f.filters.kind) for f in other.follows()] == [
            ("search", "analog placement", "method"),
            ("author", "Ana Lima", None),
        ]
        assert other.follow_data()["list_seen"] == data["list_seen"]


@pytest.mark.parametrize("name", ["José García-López", "jose garcia-lopez", "JOSE GARCIA LOPEZ"])
def test_person_key_ignores_case_accents_and_punctuation(name):
    from paperatlas.report.follows import person_key

    assert person_key(name) == "jose garcia lopez"


def _save_map(atlas: Atlas, topics: dict[int, tuple[str, list[str]]]) -> None:
    """A map of all papers with these broad topics: id -> (label, paper ids)."""
    rows = [
        {
            "level": 0,
            "topic_id": t,
            "parent_id": None,
            "label": label,
            "size": len(ids),
            "x": 0,
            "y": 0,
            "data": {},
        }
        for t, (label, ids) in topics.items()
    ]
    points = [
        {"paper_id": pid, "x": 0.0, "y": 0.0, "broad": t, "fine": -1, "outlier": 0}
        for t, (_, ids) in topics.items()
        for pid in ids
    ]
    atlas.store.maps.save("*", "lsa", "sig", {}, rows, points)


def test_topic_follow_finds_its_label_on_a_map_built_again(cli, tmp_path):
    cli("add", str(PROGRAM), "--list", "prog")
    with Atlas(cli.db) as atlas:
        _save_map(atlas, {0: ("chip layout", ["PROG1", "PROG2"]), 1: ("timing", ["PROG3"])})
    code, out, _ = cli("follow", "topic", "0")
    assert code == 0 and "topic: chip layout" in out
    code, _, err = cli("follow", "topic", "7")
    assert code == 2 and "no topic 0:7" in err
    with Atlas(cli.db) as atlas:
        atlas.store.conn.execute("UPDATE follows SET created_at = datetime('now', '-1 day')")
        ids = {item.paper["id"] for item in atlas.followed_papers()}
        assert ids == {"PROG1", "PROG2"}
        # built again, the topics numbered the other way round: the label is what is followed
        _save_map(atlas, {0: ("timing", ["PROG3"]), 1: ("chip layout", ["PROG1", "PROG2"])})
        assert {item.paper["id"] for item in atlas.followed_papers()} == {"PROG1", "PROG2"}


def test_schedule_drops_control_characters(cli, tmp_path):
    program = tmp_path / "program.jsonl"
    program.write_text(
        '{"id": "C1", "title": "Bell\\u0007 Title", "abstract": "A paper whose room and title carry control characters that a calendar cannot show.",'
        ' "date": "2026-05-01", "start": "09:00", "room": "Hall\\u001b[31m B"}\n',
        encoding="utf-8",
    )
    cli("add", str(program), "--list", "c")
    cli("like", "C1")
    ics = tmp_path / "c.ics"
    assert cli("schedule", "--out", str(ics))[0] == 0
    raw = ics.read_bytes()
    assert b"\x07" not in raw and b"\x1b" not in raw
    event = icalendar.Calendar.from_ical(raw).walk("VEVENT")[0]
    assert str(event["summary"]) == "Bell Title" and str(event["location"]) == "Hall B"
    assert event.decoded("dtstart") == datetime(2026, 5, 1, 9, 0)  # no zone given: floating
