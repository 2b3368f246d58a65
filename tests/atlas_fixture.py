"""A small atlas for the atlas, web and browser tests: 70 papers on five topics plus hostile
records (script tags, broken-out attributes), embedded with the cheap `lsa` back end."""

from __future__ import annotations

import json
from pathlib import Path

FIXTURE = Path(__file__).parent / "fixtures" / "atlas" / "papers.jsonl"
SAMPLE = Path(__file__).parents[1] / "examples" / "iclr2026_sample_list.txt"


def fixture_records() -> list[dict]:
    return [json.loads(line) for line in FIXTURE.read_text(encoding="utf-8").splitlines()]


def build_fixture_atlas(db: Path, with_map: bool = True):
    from paperatlas import Atlas
    from paperatlas.errors import PaperatlasError

    atlas = Atlas(db)
    atlas.add([FIXTURE], list_name="fixture", enrich=False)
    try:  # facts (names, kinds) make the pages richer; the tests here do not depend on them
        atlas.enrich()
    except PaperatlasError:
        pass
    atlas.embed(model="lsa")
    if with_map:
        atlas.build_map(model="lsa")
    return atlas
