"""The filter tests' atlas: the 73-paper fixture atlas (list `fixture`) plus a list `extra`
of three papers (one gives its title only, one links its code), with tags, triage states
and likes set on known papers, as a person would have set them. Built once per test run
(conftest's `filters_atlas_template`); each module copies it (`copy_atlas`)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from paperatlas import Atlas

EXTRA = [
    {
        "id": "extra-title-only",
        "title": "Oversmoothing remedies for deep graph networks",
        "abstract": "",
        "decision": "Accept (Poster)",
    },
    {
        "id": "extra-code",
        "title": "Rewiring graphs against oversmoothing",
        "abstract": "Deep graph neural networks suffer from oversmoothing; we rewire the graph "
        "before message passing and release the code.",
        "code": "https://github.com/example/rewire",
        "decision": "Accept (Oral)",
    },
    {
        "id": "extra-plain",
        "title": "A survey of oversmoothing in graph learning",
        "abstract": "We review oversmoothing in graph neural networks and the remedies proposed.",
        "decision": "Not accepted",
    },
]
TAGGED = "to-cite"  # a few papers
BATCH = "batch"  # every other paper of the fixture list


MARKS = "marks.json"  # beside the atlas, so that its copies carry it


def build_filters_atlas(path: Path, fixture_atlas: Path) -> None:
    """The atlas at `path`: a copy of the fixture atlas `fixture_atlas` with the list `extra`,
    tags, states and likes; the ids each was set on are written beside it (`marks`)."""
    shutil.copytree(fixture_atlas.parent, path.parent, dirs_exist_ok=True)
    atlas = Atlas(path)
    extra = path.parent / "extra.jsonl"
    extra.write_text("".join(json.dumps(r) + "\n" for r in EXTRA), encoding="utf-8")
    atlas.add([extra], list_name="extra")
    atlas.embed(model="lsa")
    ids = atlas.store.papers.ids("fixture")
    marked = {
        TAGGED: [ids[0], ids[1], "extra-code"],
        BATCH: ids[::2],
        "read": [ids[0]],
        "skipped": [ids[1]],
        "saved": [ids[2], "extra-code"],
        "liked": [ids[3], "extra-code"],
        "disliked": [ids[5]],
    }
    with atlas.store.transaction() as tx:
        for tag in (TAGGED, BATCH):
            tx.executemany(
                "INSERT INTO paper_tags(paper_id, tag) VALUES (?, ?)", [(pid, tag) for pid in marked[tag]]
            )
        for state in ("read", "skipped", "saved"):
            tx.executemany(
                "INSERT INTO paper_state(paper_id, state) VALUES (?, ?)",
                [(pid, state) for pid in marked[state]],
            )
    atlas.like(marked["liked"])
    atlas.dislike(marked["disliked"])
    atlas.close()
    (path.parent / MARKS).write_text(json.dumps(marked), encoding="utf-8")


def marks(path: Path) -> dict[str, list[str]]:
    """The ids each tag, state and like was set on in the filters atlas at `path` (or a copy)."""
    return json.loads((path.parent / MARKS).read_text(encoding="utf-8"))
