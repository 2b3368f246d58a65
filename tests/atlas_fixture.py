"""A small atlas for the atlas, web and browser tests: 70 papers on five topics plus hostile
records (script tags, broken-out attributes), embedded with the cheap `lsa` back end."""

from __future__ import annotations

import contextlib
import json
import shutil
from pathlib import Path

import pytest

FIXTURE = Path(__file__).parent / "fixtures" / "atlas" / "papers.jsonl"
SAMPLE = Path(__file__).parents[1] / "examples" / "iclr2026_sample_list.txt"


def fixture_records() -> list[dict]:
    return [json.loads(line) for line in FIXTURE.read_text(encoding="utf-8").splitlines()]


def build_fixture_atlas(db: Path, with_map: bool = True):
    from paperatlas import Atlas
    from paperatlas.errors import PaperatlasError

    atlas = Atlas(db)
    atlas.add([FIXTURE], list_name="fixture", enrich=False)
    with contextlib.suppress(PaperatlasError):  # facts make pages richer; no test here needs them
        atlas.enrich()
    atlas.embed(model="lsa")
    if with_map:
        atlas.build_map(model="lsa")
    return atlas


def copy_atlas(template: Path, tmp_path_factory: pytest.TempPathFactory, name: str) -> Path:
    """A copy of the atlas file `template` with every file beside it (the write-ahead log,
    vector indexes, postings), in a folder of its own: a module's tests may change it."""
    folder = tmp_path_factory.mktemp(name)
    shutil.copytree(template.parent, folder, dirs_exist_ok=True)
    return folder / template.name


# The web tests' atlas and client, one of each per test module that imports them (module
# scope): `from atlas_fixture import web_atlas_db, web_client`. The atlas is a copy of one
# built once per test run (conftest's `fixture_atlas_template`).
@pytest.fixture(scope="module", name="db")
def web_atlas_db(fixture_atlas_template, tmp_path_factory):
    return copy_atlas(fixture_atlas_template, tmp_path_factory, "web")


@pytest.fixture(scope="module", name="client")
def web_client(db):
    from fastapi.testclient import TestClient

    from paperatlas.web.app import create_app

    # the app answers only loopback host names (TestClient's default Host is "testserver")
    with TestClient(create_app(db), base_url="http://127.0.0.1") as c:
        yield c
