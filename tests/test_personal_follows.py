"""Follows and each list's "last seen" in the personal-data file (`paperatlas personal
export|import`): out of one atlas and into a fresh one of the same list, merged, checked
entry by entry, on the small conference program of tests/fixtures/follow."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.conftest import dump

from paperatlas import Atlas
from paperatlas.errors import PaperatlasError
from paperatlas.store import Store

PROGRAM = Path(__file__).parent / "fixtures" / "follow" / "program.json"


def _followed_atlas(cli) -> None:
    assert cli("add", str(PROGRAM), "--list", "prog")[0] == 0
    assert cli("follow", "search", "analog placement", "--kind", "method")[0] == 0
    assert cli("follow", "author", "Ana Lima")[0] == 0
    assert cli("seen", "prog")[0] == 0
    with Atlas(cli.db) as atlas:  # made and seen yesterday: the times must travel as they are
        atlas.store.conn.execute("UPDATE follows SET created_at = datetime('now', '-1 day')")
        atlas.store.conn.execute("UPDATE list_seen SET seen_upto = '2026-01-02 03:04:05'")


def _rows(db: Path) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    store = Store(db)
    try:
        follows = store.conn.execute(
            "SELECT kind, value, detail, created_at, fed_at FROM follows ORDER BY id"
        ).fetchall()
        seen = store.conn.execute("SELECT list_name, seen_upto FROM list_seen").fetchall()
        return [tuple(r) for r in follows], [tuple(r) for r in seen]
    finally:
        store.close()


def test_follows_and_last_seen_go_to_a_fresh_atlas_of_the_same_list(cli, tmp_path):
    _followed_atlas(cli)
    out = tmp_path / "mine.json"
    code, _, err = cli("personal", "export", out)
    assert code == 0 and "2 follows, 1 last-seen time" in err
    data = json.loads(out.read_text())
    assert data["version"] == 2
    assert data["list_seen"] == [{"list": "prog", "seen_upto": "2026-01-02 03:04:05"}]
    assert [f["kind"] for f in data["follows"]] == ["search", "author"] and "id" not in data["follows"][0]
    other = tmp_path / "other.db"
    assert cli("add", str(PROGRAM), "--list", "prog", "--db", other, use_db=False)[0] == 0
    code, _, err = cli("personal", "import", out, "--db", other, use_db=False)
    assert code == 0 and "2 new follows, 1 later last-seen time" in err
    assert _rows(other) == _rows(cli.db)
    with Atlas(other) as atlas:
        assert [(f.kind, f.value, f.filters.kind) for f in atlas.follows()] == [
            ("search", "analog placement", "method"),
            ("author", "Ana Lima", None),
        ]
        assert len(atlas.new_papers("prog")) == 3  # added after the time seen, as in the first atlas
    # importing the same file again changes nothing
    store = Store(other)
    before = dump(store)
    store.close()
    code, _, err = cli("personal", "import", out, "--db", other, use_db=False)
    assert code == 0 and "0 new follows, 0 later last-seen times" in err
    store = Store(other)
    assert dump(store) == before
    store.close()


def test_import_keeps_a_follow_already_there_and_the_later_last_seen(cli, tmp_path):
    _followed_atlas(cli)
    out = tmp_path / "mine.json"
    assert cli("personal", "export", out)[0] == 0
    data = json.loads(out.read_text())
    data["follows"][1]["created_at"] = "2020-01-01 00:00:00"  # the atlas's own follow stays
    data["follows"].append({"kind": "author", "value": "Bo Chen", "detail": {}, "created_at": None})
    data["list_seen"] = [
        {"list": "prog", "seen_upto": "2025-06-01T00:00:00+02:00"},  # earlier: the atlas's stays
        {"list": "gone", "seen_upto": "2026-02-01"},  # a list not here (yet) keeps its time
    ]
    out.write_text(json.dumps(data))
    code, _, err = cli("personal", "import", out)
    assert code == 0 and "1 new follow, 1 later last-seen time" in err
    follows, seen = _rows(cli.db)
    assert [(k, v) for k, v, *_ in follows] == [
        ("search", "analog placement"),
        ("author", "Ana Lima"),
        ("author", "Bo Chen"),
    ]
    assert follows[1][3] != "2020-01-01 00:00:00"
    assert sorted(seen) == [("gone", "2026-02-01 00:00:00"), ("prog", "2026-01-02 03:04:05")]
    data["list_seen"] = [{"list": "prog", "seen_upto": "2026-03-01T12:00:00+01:00"}]  # later: taken
    out.write_text(json.dumps(data))
    assert cli("personal", "import", out)[0] == 0
    assert ("prog", "2026-03-01 11:00:00") in _rows(cli.db)[1]


def test_a_version_1_file_without_follows_still_imports(cli, tmp_path):
    _followed_atlas(cli)
    old = tmp_path / "old.json"
    old.write_text(
        json.dumps({"format": "paperatlas-personal", "version": 1, "tags": [{"id": "x", "tag": "t"}]})
    )
    code, _, err = cli("personal", "import", old)
    assert code == 0 and "1 tag, 0 new follows" in err
    assert len(_rows(cli.db)[0]) == 2


def _file(**sections: object) -> str:
    return json.dumps({"format": "paperatlas-personal", "version": 2, **sections})


GOOD = {"kind": "author", "value": "Ana Lima", "detail": {}, "created_at": "2026-01-01 00:00:00"}


@pytest.mark.parametrize(
    "text, message",
    [
        (_file(follows=[GOOD, {**GOOD, "kind": "venue"}]), 'follows entry 2: "kind" must be one of'),
        (_file(follows=[{**GOOD, "value": 7}]), 'follows entry 1: "value" must be a non-empty string'),
        (_file(follows=[{**GOOD, "value": "x" * 1001}]), '"value" is longer than 1000 characters'),
        (_file(follows=[{**GOOD, "detail": "<script>"}]), 'follows entry 1: "detail" must be an object'),
        (_file(follows=[{**GOOD, "detail": {"level": "deep"}}]), '"detail.level" must be a whole number'),
        (_file(follows=[{**GOOD, "detail": {"filters": {"drop": "x"}}}]), "unknown filter 'drop'"),
        (
            _file(follows=[{**GOOD, "detail": {"filters": {"has_code": "yes"}}}]),
            "has_code must be true or false",
        ),
        (_file(follows=[{**GOOD, "detail": {"filters": {"state": "done"}}}]), "unknown state 'done'"),
        (_file(follows=[{**GOOD, "detail": {"sql": 1}}]), "\"detail\" has an unknown key 'sql'"),
        (_file(follows=[{**GOOD, "created_at": "yesterday"}]), '"created_at" must be a date and time'),
        (_file(follows=[["author", "x"]]), "follows entry 1: must be an object"),
        (_file(follows={"kind": "author"}), '"follows" must be a list'),
        (_file(list_seen=[{"list": "prog"}]), 'list_seen entry 1: "seen_upto" must be a date and time'),
        (_file(list_seen=[{"list": "p" * 301, "seen_upto": "2026-01-01"}]), '"list" must be a non-empty'),
        (_file(list_seen=[{"list": "prog", "seen_upto": 17}]), '"seen_upto" must be a date and time'),
    ],
)
def test_hostile_follow_rows_are_one_line_and_change_nothing(cli, tmp_path, text, message):
    _followed_atlas(cli)
    bad = tmp_path / "bad.json"
    bad.write_text(text)
    store = Store(cli.db)
    before = dump(store)
    store.close()
    code, _, err = cli("personal", "import", bad)
    assert code == 2 and f"{bad}: " in err and message in err and len(err.strip().splitlines()) == 1
    store = Store(cli.db)
    assert dump(store) == before
    store.close()


def test_put_follow_data_checks_its_rows(tmp_path):
    with Atlas(tmp_path / "a.db") as atlas:
        with pytest.raises(PaperatlasError, match='follows entry 1: "kind" must be one of'):
            atlas.put_follow_data({"follows": [{"value": "x", "created_at": "2026-01-01"}]})
        assert atlas.follows() == []
