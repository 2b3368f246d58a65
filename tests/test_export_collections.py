"""Exports of a collection or a search result, and BibTeX that a real parser reads cleanly."""

from __future__ import annotations

import csv
import io
import json
import random
from pathlib import Path

import bibtexparser
import pytest

from paperatlas.api import Atlas
from paperatlas.errors import PaperatlasError
from paperatlas.filters import Filters

FIXTURES = Path(__file__).parent / "fixtures" / "collections"
TOPICS = {
    json.loads(line)["id"]: json.loads(line)["topic"]
    for line in (FIXTURES / "corpus.jsonl").read_text().splitlines()
}


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("export") / "atlas.db"
    atlas = Atlas(path)
    atlas.add([FIXTURES / "corpus.jsonl", FIXTURES / "hostile.jsonl"], list_name="conf", enrich=False)
    atlas.close()
    return path


def test_collection_export_in_every_format(db, tmp_path):
    atlas = Atlas(db)
    liked = [pid for pid, t in TOPICS.items() if t == "graphs"][:4]
    hostile = json.loads((FIXTURES / "hostile.jsonl").read_text().splitlines()[0])["id"]
    atlas.like([*liked, hostile], collection="share")
    atlas.like([liked[0]], collection="share", value=-1)  # a dislike is not exported
    out = io.StringIO()
    assert atlas.export("jsonl", out, collection="share") == 4
    exported = [json.loads(line)["id"] for line in out.getvalue().splitlines()]
    assert exported == [*liked[1:], hostile]  # mark order
    out = io.StringIO()
    atlas.export("csv", out, collection="share")
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert [r["id"] for r in rows] == exported
    out = io.StringIO()
    atlas.export("markdown", out, collection="share")
    assert out.getvalue().count("openreview.net/forum?id=") >= 4
    out = io.StringIO()
    atlas.export("bibtex", out, collection="share")
    library = bibtexparser.parse_string(out.getvalue())
    assert not library.failed_blocks and len(library.entries) == 4
    assert {e.key for e in library.entries} == set(exported)
    assert all(e["url"] == f"https://openreview.net/forum?id={e.key}" for e in library.entries)
    # narrowed by a list and filters as well
    out = io.StringIO()
    assert (
        atlas.export(
            "jsonl",
            out,
            Filters(list_name="conf", area="learning on graphs and other geometries & topologies"),
            collection="share",
        )
        == 3
    )
    with pytest.raises(PaperatlasError, match="no collection named 'nope'"):
        atlas.export("jsonl", io.StringIO(), collection="nope")
    atlas.close()


def test_search_result_export(db):
    atlas = Atlas(db)
    out = io.StringIO()
    count = atlas.export("jsonl", out, query="speculative decoding draft model", query_k=10)
    ids = [json.loads(line)["id"] for line in out.getvalue().splitlines()]
    assert count == len(ids) == 10
    assert all(TOPICS[i] == "speculative" for i in ids)
    hits = [h.id for h in atlas.search("speculative decoding draft model", k=10).hits]
    assert ids == hits  # rank order kept
    atlas.close()


def _nasty_text(rng: random.Random, n_words: int) -> str:
    pieces = [
        "model",
        "learning",
        "$x^2$",
        "50%",
        "R&D",
        "a_b",
        "#1",
        "~",
        "^",
        "{",
        "}",
        "\\",
        "\\emph{deep}",
        "$\\alpha",
        "}{",
        "@inproceedings{",
        "ünïcödé",
        "中文",
        '"quoted"',
        "a,b",
        "=",
        "\\}",
        "{{",
        "%comment",
        "\\\\",
        "'",
    ]
    return " ".join(rng.choice(pieces) for _ in range(n_words))


@pytest.mark.slow  # reads or writes thousands of records
def test_bibtex_of_1000_hostile_papers_parses_cleanly(tmp_path):
    rng = random.Random(5)
    atlas = Atlas(tmp_path / "big.db")
    with atlas.store.transaction():
        for i in range(1000):
            pid = f"P{i:04d}x{rng.randrange(10**5):05d}"
            atlas.store.papers.insert(
                {
                    "id": pid if i % 10 else f"weird id {{{i}}}, @x",
                    "title": _nasty_text(rng, 8),
                    "abstract": _nasty_text(rng, 60),
                    "authors": [_nasty_text(rng, 2), "Zoë Ångström"],
                    "keywords": [_nasty_text(rng, 2)],
                    "year": 2026,
                    "area": _nasty_text(rng, 3),
                    "decision": "Accept (Poster)",
                    "urls": [f"https://openreview.net/forum?id={pid}"] if i % 3 else [],
                }
            )
            atlas.store.marks.set("big", pid if i % 10 else f"weird id {{{i}}}, @x", 1)
    out = tmp_path / "big.bib"
    assert atlas.export("bibtex", out, collection="big") == 1000
    library = bibtexparser.parse_file(str(out))
    assert library.failed_blocks == []
    assert len(library.entries) == 1000
    assert len({e.key for e in library.entries}) == 1000
    assert sum("url" in e.fields_dict for e in library.entries) == sum(1 for i in range(1000) if i % 3)
    atlas.close()


def test_cli_export_collection_and_query(db, tmp_path, cli):
    liked = [pid for pid, t in TOPICS.items() if t == "proteins"][:3]
    assert cli("like", *liked, "--into", "clip", "--db", db, use_db=False)[0] == 0
    out = tmp_path / "clip.bib"
    code, _, err = cli(
        "export", "--format", "bibtex", "--collection", "clip", "-o", out, "--db", db, use_db=False
    )
    assert code == 0, err
    assert len(bibtexparser.parse_file(str(out)).entries) == 3
    code, stdout, _ = cli("export", "--query", "protein design", "--top", "5", "--db", db, use_db=False)
    assert code == 0 and len(stdout.splitlines()) == 5
    code, _, err = cli("export", "--collection", "none-such", "--db", db, use_db=False)
    assert code == 2 and "no collection named" in err
