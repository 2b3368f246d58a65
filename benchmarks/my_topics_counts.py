"""What "my topics" and the filters select on a real list, as counts beside the unfiltered
ones of the same atlas (the same-run baseline): `ls --topic mine`, "unread in my topics",
a digest of them narrowed by kind, and the map page's topic counts under `state=unread`.

    benchmarks/my_topics_counts.py --papers 1500

Builds an atlas of the list's first N papers (enriched, `lsa` vectors, a map of all papers),
likes the first LIKES papers of the list, follows the map's smallest broad topic, marks the
first READ papers read, then counts through the CLI and the web app's in-process client."""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import sys
import tempfile
from pathlib import Path

from iclr_data import DEFAULT_DATA

LIKES = 5
READ = 100


def cli(*args: str) -> str:
    from typer.testing import CliRunner

    from paperatlas.cli.common import app

    result = CliRunner().invoke(app, list(args), env={"COLUMNS": "400"})
    if result.exit_code != 0:
        raise SystemExit(f"paperatlas {' '.join(args)}: {result.output}")
    return result.output


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--papers", type=int, default=1500)
    args = ap.parse_args()
    os.environ.setdefault("PAPERATLAS_WORKERS", "1")
    from fastapi.testclient import TestClient

    from paperatlas import Atlas, Filters
    from paperatlas.web.app import create_app

    folder = Path(tempfile.mkdtemp(prefix="my-topics-"))
    db = folder / "atlas.db"
    with gzip.open(args.data, "rt", encoding="utf-8") as f:
        lines = [line for _, line in zip(range(args.papers), f, strict=False)]
    part = folder / "part.jsonl"
    part.write_text("".join(lines), encoding="utf-8")
    with Atlas(db) as atlas:
        atlas.add([part], list_name="iclr", enrich=True)
        atlas.embed(model="lsa")
        atlas.build_map(model="lsa")
        ids = [r["id"] for r in atlas.papers(limit=READ)]
        broad = [t for t in atlas.map_reader("*").header["topics"] if t["level"] == 0]
        smallest = min(broad, key=lambda t: (t["size"], t["topic_id"]))
        atlas.like(ids[:LIKES])
        atlas.follow_topic(smallest["topic_id"])
        atlas.set_state(ids, "read")
        chosen = atlas.topics_named("mine", papers=True)
        mine = len(chosen.paper_ids or ())
        total = atlas.count_papers()
        unread_all = atlas.count_papers(Filters(state="unread"))
        methods_all = atlas.count_papers(Filters(kind="method"))
    rows = lambda out: len(re.findall(r"^│ \S", out, flags=re.M))  # noqa: E731 (a table's rows)
    mine_ls = rows(cli("ls", "--topic", "mine", "--limit", "100000", "--db", str(db)))
    unread_ls = rows(cli("ls", "--topic", "mine", "--state", "unread", "--limit", "100000", "--db", str(db)))
    digest = cli("digest", "--topic", "mine", "--kind", "method", "--db", str(db))
    digest_papers = int(re.search(r"· selection · (\d+) papers", digest).group(1))
    line = next(x for x in digest.splitlines() if x.startswith("*Papers chosen by"))
    with TestClient(create_app(db), base_url="http://127.0.0.1") as client:
        page = client.get("/map", params={"state": "unread"}).text
    counts = json.loads(re.search(r"data-topic-counts='([^']*)'", page).group(1))
    print(f"atlas: first {total} papers of {args.data.name}; {len(broad)} broad topics")
    print(f"person: {LIKES} likes, follows {smallest['label']!r} ({smallest['size']} papers), {READ} read")
    print(f"my topics: {len(chosen.topics)} topics, {mine} papers (all papers: {total})")
    print(f"ls --topic mine: {mine_ls} rows; --state unread: {unread_ls} rows (unread of all: {unread_all})")
    print(
        f"digest --topic mine --kind method: {digest_papers} papers (methods of all: {methods_all}); {line}"
    )
    print(
        f"/map?state=unread topic counts: sum {sum(counts.values())} (unfiltered sizes: sum {sum(t['size'] for t in broad)})"
    )
    sys.stdout.flush()


if __name__ == "__main__":
    main()
