"""What a person keeps about papers (store/kept.py, Atlas.set_state/set_note/tag, the CLI's
mark/tag/untag/tags/note, and `personal export|import`): on the small ICLR fixture."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import dump
from paperatlas import Atlas
from paperatlas.api import web_reads
from paperatlas.errors import PaperatlasError
from paperatlas.ingest import add_files
from paperatlas.store import MIGRATIONS, Store

MINI = Path(__file__).parent / "fixtures" / "sources" / "iclr_mini.jsonl"
REKEY = Path(__file__).parent / "fixtures" / "ingest" / "rekey"
PAPER = "GmX7qQ1abc"


def _added(cli) -> None:
    assert cli("add", MINI, "--no-enrich")[0] == 0


def test_mark_tag_and_note_from_the_command_line(cli):
    _added(cli)
    assert cli("mark", "read", "GmX7")[0] == 0
    assert cli("tag", PAPER, "Diffusion Models", "#RL")[0] == 0
    code, _, err = cli("note", PAPER, "Read **twice**; see [code](https://example.org)")
    assert code == 0 and f"wrote the note of {PAPER}" in err
    code, out, _ = cli("note", PAPER)
    assert out.strip() == "Read **twice**; see [code](https://example.org)"
    code, out, _ = cli("tags")
    assert code == 0 and "diffusion-models" in out and "rl " in out
    with Atlas(cli.db) as atlas:
        kept = atlas.kept([PAPER])[PAPER]
        assert (kept.state, kept.tags) == ("read", ("diffusion-models", "rl"))
        assert atlas.ids_in_state("read") == [PAPER] and atlas.ids_with_tag("RL") == [PAPER]
        assert atlas.tag_counts() == {"diffusion-models": 1, "rl": 1}
    assert cli("untag", PAPER, "rl")[0] == 0 and cli("mark", "none", PAPER)[0] == 0
    assert cli("note", PAPER, "--clear")[0] == 0
    with Atlas(cli.db) as atlas:
        assert atlas.kept([PAPER])[PAPER].tags == ("diffusion-models",)
        assert atlas.kept([PAPER])[PAPER].state is None and atlas.kept([PAPER])[PAPER].note == ""


def test_a_note_can_come_from_stdin(cli, monkeypatch):
    import io
    import sys

    _added(cli)
    monkeypatch.setattr(sys, "stdin", io.StringIO("# Heading\n\n- point one\r\n"))
    assert cli("note", PAPER, "-")[0] == 0
    with Atlas(cli.db) as atlas:
        assert atlas.kept([PAPER])[PAPER].note == "# Heading\n\n- point one"


@pytest.mark.parametrize(
    "args, message",
    [
        (("tag", PAPER, "<script>alert(1)</script>"), "a tag holds letters, digits"),
        (("tag", PAPER, "javascript:alert(1)"), "a tag holds letters, digits"),
        (("tag", PAPER, "x" * 65), "longer than 64 characters"),
        (("note", PAPER, "bell \x07 in a note"), "control character (U+0007)"),
        (("note", PAPER, "x" * 1_000_000), "the note is 1,000,000 characters; a note holds at most 20,000"),
        (("mark", "read", "nosuchpaper"), "unknown or ambiguous paper id: nosuchpaper"),
        (("tag", "nosuchpaper", "ok"), "unknown or ambiguous paper id: nosuchpaper"),
    ],
)
def test_hostile_or_wrong_input_is_one_line_and_writes_nothing(cli, args, message):
    _added(cli)
    store = Store(cli.db)
    before = dump(store)
    store.close()
    code, out, err = cli(*args)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1
    store = Store(cli.db)
    assert dump(store) == before
    store.close()


def test_twins_merged_by_a_rekey_keep_both_notes_and_all_tags(store):
    """A hash-id paper re-keyed to its twin's source id: what was kept under each id ends
    up on the kept id, notes joined (never one dropped), tags unioned, the newer state."""
    add_files(store, [REKEY / "hash_only.jsonl"])
    [old] = store.papers.ids()
    with store.transaction():
        store.kept.set_note(old, "my first note")
        store.kept.add_tags(old, ["moe", "routing"])
        store.kept.set_state(old, "saved", updated_at="2026-01-01 00:00:00")
        # kept under the source id before its record was ever added (a restored backup)
        store.kept.set_note("hashroute26", "from the backup")
        store.kept.add_tags("hashroute26", ["moe", "backup"])
        store.kept.set_state("hashroute26", "read", updated_at="2026-02-01 00:00:00")
    add_files(store, [REKEY / "twins.jsonl"])
    assert store.papers.ids() == ["hashroute26"]
    assert store.kept.notes() == {"hashroute26": "from the backup\n\n---\n\nmy first note"}
    assert store.kept.tags_of() == {"hashroute26": ["backup", "moe", "routing"]}
    assert store.kept.states() == {"hashroute26": "read"}


def test_adding_a_list_again_keeps_what_was_kept(cli):
    _added(cli)
    assert cli("tag", PAPER, "later-reading")[0] == 0 and cli("mark", "saved", PAPER)[0] == 0
    assert cli("add", MINI, "--no-enrich")[0] == 0
    with Atlas(cli.db) as atlas:
        assert atlas.kept([PAPER])[PAPER].state == "saved"
        assert atlas.ids_with_tag("later-reading") == [PAPER]


def test_a_read_only_atlas_older_than_the_tables_reads_as_nothing_kept(tmp_path):
    path = tmp_path / "old.db"
    store = Store(path)
    add_files(store, [MINI])
    with store.transaction():
        for table in ("paper_state", "paper_notes", "paper_tags"):
            store.conn.execute(f"DROP TABLE {table}")
        store.conn.execute(f"PRAGMA user_version = {len(MIGRATIONS) - 1}")
    store.close()
    with Atlas(path, read_only=True) as atlas:
        assert atlas.kept([PAPER]) == {} and atlas.tag_counts() == {} and atlas.state_counts() == {}
        assert atlas.ids_in_state("read") == [] and atlas.ids_with_tag("x") == []
        with pytest.raises(PaperatlasError, match="read-only"):
            atlas.tag([PAPER], ["x"])


def test_personal_data_goes_out_and_back_in_merged(cli, tmp_path):
    _added(cli)
    assert cli("like", PAPER)[0] == 0 and cli("like", "Dif_2", "--into", "graphs")[0] == 0
    assert cli("mark", "skipped", "Dif_2")[0] == 0
    assert cli("tag", PAPER, "temporal")[0] == 0
    assert cli("note", PAPER, "keep <b>this</b>")[0] == 0
    out = tmp_path / "mine.json"
    code, _, err = cli("personal", "export", out)
    assert code == 0 and "1 state, 1 note, 1 tag" in err
    data = json.loads(out.read_text())
    assert data["format"] == "paperatlas-personal" and len(data["marks"]) == 2
    # a second atlas of the same list, with a note of its own on the same paper
    other = tmp_path / "other.db"
    assert cli("add", MINI, "--no-enrich", "--db", other, use_db=False)[0] == 0
    assert cli("note", PAPER, "written here", "--db", other, use_db=False)[0] == 0
    code, _, err = cli("personal", "import", out, "--db", other, use_db=False)
    assert code == 0 and "imported" in err and "2 marks, 1 state, 1 note, 1 tag" in err
    with Atlas(other) as atlas:
        assert atlas.kept([PAPER])[PAPER].note == "written here\n\n---\n\nkeep <b>this</b>"
        assert web_reads.liked_ids(atlas) == {PAPER} and [c.name for c in atlas.collections()] == [
            "graphs",
            "likes",
        ]
        assert atlas.ids_in_state("skipped") == [atlas.resolve_id("Dif_2")]
    # importing the same file again changes nothing
    store = Store(other)
    before = dump(store)
    store.close()
    assert cli("personal", "import", out, "--db", other, use_db=False)[0] == 0
    store = Store(other)
    assert dump(store) == before
    store.close()


@pytest.mark.parametrize(
    "text, message",
    [
        ('{"format": "paperatlas-personal", "version": 1,\n "notes": [}', "bad.json:2: not JSON"),
        ('{"format": "something-else"}', 'not a personal-data file (no "format"'),
        ('{"format": "paperatlas-personal", "version": 9}', "personal-data version 9"),
        (
            '{"format": "paperatlas-personal", "version": 1, "tags": [{"id": "a", "tag": "ok"}, '
            '{"id": "a", "tag": "<script>"}]}',
            "tags entry 2: tag '<script>'",
        ),
        (
            '{"format": "paperatlas-personal", "version": 1, "states": [{"id": "a", "state": "done"}]}',
            "states entry 1: unknown state 'done'",
        ),
        (
            '{"format": "paperatlas-personal", "version": 1, "notes": [{"id": "a", "note": "'
            + "x" * 30_000
            + '"}]}',
            "notes entry 1: the note is 30,000 characters",
        ),
    ],
)
def test_a_bad_personal_file_is_one_line_and_changes_nothing(cli, tmp_path, text, message):
    _added(cli)
    assert cli("tag", PAPER, "mine")[0] == 0
    bad = tmp_path / "bad.json"
    bad.write_text(text)
    store = Store(cli.db)
    before = dump(store)
    store.close()
    code, _, err = cli("personal", "import", bad)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1
    store = Store(cli.db)
    assert dump(store) == before
    store.close()


def test_an_import_whose_merged_note_would_be_too_long_changes_nothing(cli, tmp_path):
    _added(cli)
    assert cli("note", PAPER, "a" * 15_000)[0] == 0
    data = {"format": "paperatlas-personal", "version": 1, "notes": [{"id": PAPER, "note": "b" * 15_000}]}
    path = tmp_path / "big.json"
    path.write_text(json.dumps(data))
    store = Store(cli.db)
    before = dump(store)
    store.close()
    code, _, err = cli("personal", "import", path)
    assert (
        code == 2 and f"big.json: the note of {PAPER} and the atlas's own would be 30,007 characters" in err
    )
    store = Store(cli.db)
    assert dump(store) == before
    store.close()


def test_tags_in_any_script_are_one_word_in_lower_case(store):
    from paperatlas.store.kept import clean_tag

    assert [clean_tag(t) for t in ("#RL", "强化学习", "Large  Language Models", "c++", "a/b")] == [
        "rl",
        "强化学习",
        "large-language-models",
        "c++",
        "a/b",
    ]
    for bad in ("", "#", "---", "a:b", "a,b", "a<b", "x" * 65):
        with pytest.raises(PaperatlasError):
            clean_tag(bad)
